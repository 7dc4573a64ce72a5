import { text } from './form-schema'

/** A field people never see (`<HoneypotField>`); bots that fill every input fill it too. */
export const HONEYPOT_FIELD = 'website'

/** The honeypot in a form's schema: anything in it marks the post as a bot's. */
export const honeypotSchema = { [HONEYPOT_FIELD]: text().optional() }
