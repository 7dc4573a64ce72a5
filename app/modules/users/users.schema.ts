import { z } from 'zod'
import { ROLES, type Role } from '~/platform/access'
import { requiredText, text } from '~/platform/form-schema'

export const ROLE_LABELS: Record<Role, string> = {
  admin: 'Administrator',
  editor: 'Editor',
  marketplace: 'Marketplace manager',
}

/** What each role may do, said where a role is chosen. */
export const ROLES_HINT =
  'Administrators can change everything. Editors post news, events, photos, videos and products, edit the page texts and read messages, but see no users, subscribers, sign-up lists, audit log or settings. Marketplace managers change only the marketplace products.'

export const ROLE_OPTIONS = ROLES.map((value) => ({ value, label: ROLE_LABELS[value] }))

export const PASSWORD_MIN_LENGTH = 10
const PASSWORD_MAX_LENGTH = 200

const email = text({ error: 'E-mail is required' })
  .trim()
  .toLowerCase()
  .min(1, 'E-mail is required')
  .max(254, 'E-mail must be at most 254 characters')
  .pipe(z.email('Enter a valid e-mail address'))

export const PasswordSchema = text({ error: 'Password is required' })
  .min(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters`)

const role = z.enum(ROLES, { error: 'Choose a role' })

export const LoginSchema = z.object({
  email: text({ error: 'E-mail is required' }).trim().toLowerCase().max(254, 'Invalid credentials'),
  password: text({ error: 'Password is required' }).max(PASSWORD_MAX_LENGTH, 'Invalid credentials'),
  redirectTo: text().optional(),
})

/** Signing out names the public page it was started from, to come back to it. */
export const LogoutSchema = z.object({ redirectTo: text().optional() })

export const NewUserSchema = z.object({
  name: requiredText('Name', 100),
  email,
  role,
  password: PasswordSchema,
})
export type NewUserInput = z.infer<typeof NewUserSchema>

/** The forms on a user's admin page, told apart by their `intent`. */
export const ManageUserSchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('rename'), name: requiredText('Name', 100) }),
  z.object({ intent: z.literal('change-role'), role }),
  z.object({ intent: z.literal('reset-password'), password: PasswordSchema }),
  z.object({ intent: z.literal('reset-link') }),
  z.object({ intent: z.literal('remove') }),
  z.object({ intent: z.literal('remove-passkey'), passkeyId: text().max(1_400) }),
])
export type ManageUserInput = z.infer<typeof ManageUserSchema>

const newPasswordFields = {
  newPassword: PasswordSchema,
  confirmPassword: text({ error: 'Repeat the new password' }),
}
const samePasswordTwice: [(v: { newPassword: string; confirmPassword: string }) => boolean, { path: string[]; message: string }] =
  [(v) => v.newPassword === v.confirmPassword, { path: ['confirmPassword'], message: 'The passwords do not match' }]

export const ChangeOwnPasswordSchema = z
  .object({
    currentPassword: text({ error: 'Enter your current password' }).max(PASSWORD_MAX_LENGTH, 'Current password is incorrect'),
    ...newPasswordFields,
  })
  .refine(...samePasswordTwice)

/** Typing one's password again before changing how the account signs in (/admin/account/confirm). */
export const ConfirmItIsYouSchema = z.object({
  currentPassword: text({ error: 'Enter your current password' }).max(PASSWORD_MAX_LENGTH, 'Current password is incorrect'),
  redirectTo: text().optional(),
})

/** What the forgotten-password pages say, in one place. */
/** A person's own name and e-mail address (/admin/account/details); the password only when the address changes. */
export const ChangeOwnDetailsSchema = z.object({
  name: requiredText('Name', 100),
  email,
  currentPassword: text().max(PASSWORD_MAX_LENGTH, 'Current password is incorrect').optional(),
})

export const EMAIL_CHANGE_MESSAGES = {
  same: 'This is your e-mail address already.',
  passwordNeeded: 'Enter your current password to change your e-mail address',
  noEmail: 'This website cannot send e-mail, so it cannot check a new address. Ask an administrator to set up e-mail first.',
  sent: (address: string) =>
    `A link is on its way to ${address}. Open it within an hour to use that address; until then you sign in with this one.`,
  tooMany: (wait: string) => `Too many changes asked for. Please try again in ${wait}.`,
  unusable: 'This link has expired or has already been used. Ask for a new one on your account page.',
  taken: 'Another account uses this address now, so yours stays as it was.',
  done: (address: string) => `Your account now uses ${address}. Sign in with it from now on.`,
}

export const PASSWORD_RESET_MESSAGES = {
  sent:
    'If an account uses this address, a link to choose a new password is on its way to it. ' +
    'The link works once, within an hour. If nothing arrives, look in the spam folder.',
  noEmail: 'This website cannot send e-mail. Please ask an administrator for a link to choose a new password.',
  unusable: 'This link has expired or has already been used. You can ask for a new one.',
  done: 'Your new password is set, every device has been signed out and any passkeys removed. Please sign in.',
  tooMany: (wait: string) => `Too many requests. Please try again in ${wait}.`,
}

export const ForgotPasswordSchema = z.object({ email })

export const ChooseNewPasswordSchema = z.object(newPasswordFields).refine(...samePasswordTwice)

/** Invitations waiting at once, at most: an administrator's session cannot fill the table. */
export const INVITATION_LIMIT = 50

/** What the invitation pages say, in one place. */
export const INVITATION_MESSAGES = {
  sent: (email: string) => `An invitation is on its way to ${email}. Its link works once, within 7 days.`,
  made: 'Pass this link on to the person you invite (by WhatsApp or in person). It works once, within 7 days.',
  tooMany: `${INVITATION_LIMIT} invitations are already waiting. Withdraw some before inviting more people.`,
  withdrawn: (email: string) => `The invitation to ${email} was withdrawn.`,
  gone: 'This invitation is no longer waiting.',
  unusable: 'This invitation has expired, was withdrawn or has already been used. Please ask an administrator for a new one.',
  taken: 'An account with this e-mail address already exists. Sign in instead, or ask for a new password.',
  joined: 'Welcome! Your account is ready.',
}

export const InviteSchema = z.object({ email, role })
export type InviteInput = z.infer<typeof InviteSchema>

export const WithdrawInvitationSchema = z.object({ intent: z.literal('withdraw'), id: requiredText('Invitation', 36) })

export const JoinSchema = z.object({ name: requiredText('Name', 100), ...newPasswordFields }).refine(...samePasswordTwice)

/** The buttons of the account's list of devices. */
export const SignOutDevicesSchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('sign-out-device'), device: requiredText('Device', 64) }),
  z.object({ intent: z.literal('sign-out-others') }),
])
