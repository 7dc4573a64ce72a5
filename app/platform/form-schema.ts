import { z } from 'zod'

/** Zod pieces shared by the forms' schemas (browser and server), so the same rule reads the same everywhere. */

/** Text that must be given: trimmed, then at least one and at most `max` characters. */
export function requiredText(label: string, max: number) {
  return z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`)
}
