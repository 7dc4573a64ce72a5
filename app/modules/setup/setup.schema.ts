import { z } from 'zod'
import { requiredText } from '~/platform/form-schema'
import { isValidTimeZone } from '~/modules/settings/settings.schema'
import { JoinSchema, NewUserSchema } from '~/modules/users/users.schema'

/** How a new site starts: the demo content to learn from, or the pages a charity needs with placeholder texts. */
export const SITE_STARTS = ['demo', 'empty'] as const
export type SiteStart = (typeof SITE_STARTS)[number]

export const SITE_START_LABELS: Record<SiteStart, { label: string; hint: string }> = {
  demo: {
    label: 'With the demo content',
    hint: 'A complete example site (a charity in Antigua) with news, events, photos and products to learn from. Remove it all later in one step.',
  },
  empty: {
    label: 'Empty',
    hint: 'Home, About, Support and Contact with placeholder texts to replace, and nothing else.',
  },
}

export const SetupSchema = z
  .object({
    organisationName: requiredText('Organisation name', 120),
    name: requiredText('Your name', 100),
    email: NewUserSchema.shape.email,
    newPassword: JoinSchema.shape.newPassword,
    confirmPassword: JoinSchema.shape.confirmPassword,
    timeZone: requiredText('Time zone', 64).refine(isValidTimeZone, 'Choose a time zone from the list, e.g. America/Jamaica'),
    start: z.enum(SITE_STARTS, { error: 'Choose how the site starts' }),
  })
  .refine((v) => v.newPassword === v.confirmPassword, { path: ['confirmPassword'], message: 'The passwords do not match' })
export type SetupInput = z.infer<typeof SetupSchema>

/** What the setup pages say, in one place. */
export const SETUP_MESSAGES = {
  waiting: 'This website is being set up. Its owner opens the setup page with the address printed where the site was started.',
  unusable:
    'This setup address has expired or has already been used. Restart the site to get a new address printed, or sign in if the site is set up.',
  done: (organisation: string) => `Welcome! ${organisation} is ready. This is your dashboard.`,
}
