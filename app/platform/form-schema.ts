import { z } from 'zod'
import { HONEYPOT_FIELD } from './honeypot'

/** Zod pieces shared by the forms' schemas (browser and server), so the same rule reads the same everywhere. */

// zod-config.ts sets this before zod loads, unless a form in the page's first scripts (the footer's
// e-mail sign-up) brings zod in earlier: then this turns the `new Function` probe off before any parse.
z.config({ jitless: true })

// U+0000 means nothing in a form, and PostgreSQL cannot store it in text (a query that carries it
// fails). No browser field sends it; a crafted request may.
const withoutNul = (value: string) => value.replaceAll('\u0000', '')

/**
 * Any text a form sends, with U+0000 removed: the schemas read every text field through this,
 * never through `z.string()`, so no form can hand the character to the database.
 */
export function text(params?: Parameters<typeof z.string>[0]) {
  return z.string(params).overwrite(withoutNul)
}

/** Text that must be given: trimmed, then at least one and at most `max` characters. */
export function requiredText(label: string, max: number) {
  return text({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`)
}

/** Text that may be left empty: trimmed, at most `max` characters; a missing value (an empty field) becomes ''. */
export function optionalText(label: string, max: number) {
  return text()
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .optional()
    .transform((v) => v ?? '')
}

/** The honeypot in a form's schema (`<HoneypotField>`): anything in it marks the post as a bot's. */
export const honeypotSchema = { [HONEYPOT_FIELD]: text().optional() }
