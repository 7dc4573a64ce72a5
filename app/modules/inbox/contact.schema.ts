import { z } from 'zod'
import { text } from '~/platform/form-schema'
import { honeypotSchema } from '~/platform/honeypot'

export const CONTACT_SUBJECTS = ['general', 'volunteer', 'donation', 'assistance', 'other'] as const
export type ContactSubject = (typeof CONTACT_SUBJECTS)[number]

export const CONTACT_SUBJECT_LABELS: Record<ContactSubject, string> = {
  general: 'General Inquiry',
  volunteer: 'Volunteering',
  donation: 'Donations',
  assistance: 'Request Assistance',
  other: 'Other',
}

export const CONTACT_LIMITS = { name: 100, email: 254, phone: 30, message: 5000 } as const

/** Control characters (CR/LF above all) never belong in a single-line field that may end up in a mail header. */
const singleLine = (value: string) => value.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim()

export const ContactSchema = z.object({
  name: text({ error: 'Please enter your name' })
    .overwrite(singleLine)
    .min(1, 'Please enter your name')
    .max(CONTACT_LIMITS.name, `Your name can be at most ${CONTACT_LIMITS.name} characters`),
  email: text({ error: 'Please enter your e-mail address' })
    .trim()
    .min(1, 'Please enter your e-mail address')
    .max(CONTACT_LIMITS.email, 'Please enter a valid e-mail address')
    .pipe(z.email('Please enter a valid e-mail address')),
  phone: text()
    .overwrite(singleLine)
    .max(CONTACT_LIMITS.phone, `A phone number can be at most ${CONTACT_LIMITS.phone} characters`)
    .regex(/^[0-9+()\-. ]*$/, 'Please enter a valid phone number (digits, spaces, + - ( ) only)')
    .optional()
    .transform((value) => value || undefined),
  subject: z.enum(CONTACT_SUBJECTS, { error: 'Please choose a subject' }),
  message: text({ error: 'Please enter your message' })
    .trim()
    .min(1, 'Please enter your message')
    .max(CONTACT_LIMITS.message, `Your message can be at most ${CONTACT_LIMITS.message} characters`),
  ...honeypotSchema,
})

export type ContactInput = z.infer<typeof ContactSchema>
