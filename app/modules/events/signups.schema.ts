import { z } from 'zod'
import { plainDateProblem } from '~/platform/dates'
import { honeypotSchema, text } from '~/platform/form-schema'

/**
 * Sign-ups are taken for dates up to this many days ahead: enough for any planning, and nobody can
 * hold places on the endless dates of a weekly series.
 */
export const SIGNUP_DAYS_AHEAD = 120

/** Everything a person reads about sign-ups, in one place. */
export const SIGNUP_MESSAGES = {
  confirmed: 'You are signed up. See you there!',
  waiting: 'The event is full, so you are on the waiting list. We will tell you if a place becomes free.',
  closed: 'Sign-ups for this date are closed.',
  notTaking: 'This event does not take sign-ups.',
  noSuchDate: 'The event does not take place on that date.',
  listFull: 'Sorry, this date is fully booked and its waiting list is full too.',
  tooMany: 'Too many sign-ups from your connection. Please try again later.',
  tooManyForAddress: 'This e-mail address has been given for many sign-ups this week. Please try again next week, or contact us.',
  failed: 'Sorry, your sign-up could not be saved. Please try again later.',
  emailNeeded: 'Please enter your e-mail address',
  whatsappNeeded: 'Please enter your WhatsApp number',
  whatsappInvalid: 'Please enter a valid WhatsApp number, with its country code if it is not a local one',
  contactNeeded: 'Please enter your e-mail address or your WhatsApp number',
  partyTooLarge: 'That is more people than there are places',
  tooFarAhead: `Sign-ups for a date open ${SIGNUP_DAYS_AHEAD} days before it. Please come back closer to the date.`,
  cancelled: 'Your sign-up has been cancelled.',
  gone: 'This sign-up no longer exists: it has been cancelled, or the link is incomplete.',
} as const

export const SIGNUP_CONTACT_OPTIONS = [
  { value: 'email', label: 'E-mail address' },
  { value: 'whatsapp', label: 'WhatsApp number' },
  { value: 'either', label: 'E-mail address or WhatsApp number' },
] as const

export type SignupContact = (typeof SIGNUP_CONTACT_OPTIONS)[number]['value']

/** At most this many people in one sign-up ("how many people"). */
export const PARTY_SIZE_MAX = 20
/** Sign-ups kept per date, waiting list included: what anonymous visitors can fill is bounded. */
export const SIGNUPS_PER_DATE_MAX = 500
export const PLACE_LIMIT_MAX = 10_000
export const CLOSES_HOURS_BEFORE_MAX = 24 * 30

export const SIGNUP_LIMITS = { name: 100, email: 254, whatsapp: 30 } as const

/** Control characters (CR/LF above all) never belong in a name that ends up in an e-mail. */
const singleLine = (value: string) => value.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim()

const wholeNumber = (label: string, min: number, max: number) =>
  z
    .number({ error: `${label} must be a whole number` })
    .int(`${label} must be a whole number`)
    .min(min, `${label} must be at least ${min}`)
    .max(max, `${label} must be at most ${max}`)

/** The sign-up part of the event form (admin). */
export const signupSettingsFields = {
  takesSignups: z.boolean().default(false),
  signupLimit: wholeNumber('Places per date', 1, PLACE_LIMIT_MAX).optional(),
  signupContact: z.enum(['email', 'whatsapp', 'either'], { error: 'Choose how people can be reached' }).default('email'),
  signupAsksPartySize: z.boolean().default(false),
  signupClosesHoursBefore: wholeNumber('Hours before the start', 0, CLOSES_HOURS_BEFORE_MAX).default(0),
}

export type SignupSettings = z.infer<z.ZodObject<typeof signupSettingsFields>>

/** An event that takes no sign-ups. */
export const NO_SIGNUPS: SignupSettings = {
  takesSignups: false,
  signupContact: 'email',
  signupAsksPartySize: false,
  signupClosesHoursBefore: 0,
}

/** The visitor's sign-up form on an event's page. Which contact is required depends on the event: the service checks it. */
export const SignUpSchema = z.object({
  date: text({ error: 'Choose a date' })
    .trim()
    .refine((v) => plainDateProblem(v) === null, 'Choose a date'),
  name: text({ error: 'Please enter your name' })
    .overwrite(singleLine)
    .min(1, 'Please enter your name')
    .max(SIGNUP_LIMITS.name, `Your name can be at most ${SIGNUP_LIMITS.name} characters`),
  email: text()
    .trim()
    .max(SIGNUP_LIMITS.email, 'Please enter a valid e-mail address')
    .pipe(z.email('Please enter a valid e-mail address'))
    .optional(),
  whatsapp: text()
    .overwrite(singleLine)
    .max(SIGNUP_LIMITS.whatsapp, 'Please enter a valid WhatsApp number')
    .regex(/^\+?[0-9()\-. ]{6,}$/, 'Please enter a valid WhatsApp number (digits, spaces, + - ( ) only)')
    .optional(),
  partySize: wholeNumber('How many people', 1, PARTY_SIZE_MAX).default(1),
  ...honeypotSchema,
})

export type SignUpInput = z.infer<typeof SignUpSchema>

/** The admin's message to the people signed up for a date. */
export const SignupMessageSchema = z.object({
  intent: z.literal('message'),
  subject: text({ error: 'Subject is required' }).overwrite(singleLine).min(1, 'Subject is required').max(150),
  body: text({ error: 'Message is required' }).trim().min(1, 'Message is required').max(5_000),
  includeWaiting: z.boolean().default(false),
})

export const DeleteSignupSchema = z.object({
  intent: z.literal('delete'),
  id: text({ error: 'Sign-up ID is required' }).trim().min(1).max(100),
})

/** The forms of the admin's sign-up list. */
export const ManageSignupsSchema = z.discriminatedUnion('intent', [DeleteSignupSchema, SignupMessageSchema])
