import { z } from 'zod'
import { ROLES } from '~/platform/access'
import { text } from '~/platform/form-schema'

/** What two-step sign-in says to people, in one place. */
export const TWO_STEP_MESSAGES = {
  wrongCode: 'That code is not right. Check the app and try again, or use a recovery code.',
  wrongSetupCode: 'That code is not right. Check that the app shows this site, and enter its current code.',
  expired: 'Your sign-in took too long. Please sign in again.',
  tooMany: (wait: string) => `Too many wrong codes. Please try again in ${wait}.`,
  requiredByRole: 'Two-step sign-in is required for your role, so it cannot be turned off.',
}

// An app's code has six digits; a recovery code ten letters and digits, perhaps with spaces or a dash.
export const SecondStepSchema = z.object({
  code: text({ error: 'Enter the code' }).trim().min(1, 'Enter the code').max(40, 'That code is not right.'),
})

export const ConfirmAuthenticatorSchema = z.object({
  code: text({ error: 'Enter the code the app shows' })
    .trim()
    .min(1, 'Enter the code the app shows')
    .max(20, 'Enter the six digits the app shows'),
})

/** The forms of the two-step page under My account, told apart by their `intent`. */
export const ManageTwoStepSchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('begin') }),
  z.object({ intent: z.literal('confirm'), ...ConfirmAuthenticatorSchema.shape }),
  z.object({ intent: z.literal('new-recovery-codes') }),
  z.object({ intent: z.literal('turn-off') }),
])

export const TwoStepRolesSchema = z.object({
  roles: z
    .array(z.enum(ROLES, { error: 'Choose a role from the list' }))
    .max(ROLES.length)
    .default([]),
})
