/** A field people never see (`<HoneypotField>`); bots that fill every input fill it too. Zod-free: every page's footer reads it. */
export const HONEYPOT_FIELD = 'website'
