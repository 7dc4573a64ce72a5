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
  passkeyRefused: 'That passkey was not accepted. Sign in with your password instead, or try again.',
}

// A browser's WebAuthn answer, as JSON: a few kilobytes at most.
const webAuthnResponse = text({ error: 'No answer from the passkey' }).max(20_000, 'The passkey answer is too long')

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
  z.object({ intent: z.literal('remove-passkey'), passkeyId: text().max(1_400) }),
])

/** The passkey endpoints' forms: first the options for the browser, then the browser's answer. */
export const PasskeySignInSchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('options') }),
  z.object({ intent: z.literal('verify'), response: webAuthnResponse, redirectTo: text().optional() }),
])

export const AddPasskeySchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('options') }),
  z.object({
    intent: z.literal('add'),
    name: text({ error: 'Give the passkey a name' })
      .trim()
      .min(1, 'Give the passkey a name, e.g. the device it is on')
      .max(60, 'The name must be at most 60 characters'),
    response: webAuthnResponse,
  }),
])

export const TwoStepRolesSchema = z.object({
  roles: z
    .array(z.enum(ROLES, { error: 'Choose a role from the list' }))
    .max(ROLES.length)
    .default([]),
})
