import { getFormProps, useForm, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form } from 'react-router'
import { BackLink } from '~/components/back-link'
import type { Route } from './+types/$userId'
import { auditSourceOf, recordAuditEvent } from '~/modules/audit/audit.service.server'
import { ConfirmButton } from '~/components/confirm-button'
import { PasskeyList } from '~/components/passkey-list'
import { ErrorList, Field, SelectField } from '~/components/forms'
import { getUserForAdmin } from '~/modules/users/users.queries.server'
import {
  ManageUserSchema,
  PASSWORD_MIN_LENGTH,
  ROLE_LABELS,
  ROLE_OPTIONS,
  type ManageUserInput,
} from '~/modules/users/users.schema'
import { issueResetLink, resetLinkUrl } from '~/modules/users/password-reset.server'
import { listPasskeys, removePasskey } from '~/modules/users/passkeys.server'
import { siteSettingsFor } from '~/modules/settings/settings.context.server'
import { formatDate } from '~/platform/dates'
import { changeUserRole, removeUser, renameUser, resetUserPassword, UserRuleError } from '~/modules/users/users.service.server'
import { requireAccess, requireRecentConfirmation } from '~/platform/auth.server'
import { getSiteOrigin } from '~/platform/site-url.server'
import { redirectWithToast } from '~/platform/toast.server'
import { parseFormSubmission } from '~/platform/form-submission.server'

type Intent = ManageUserInput['intent']
const INTENTS: Intent[] = ManageUserSchema.options.map((option) => option.shape.intent.value)

export const meta: Route.MetaFunction = ({ data }) => [{ title: `${data?.user.name ?? 'User'} | Site admin` }]

async function findUser(userId: string) {
  const user = await getUserForAdmin(userId)
  if (!user) throw data('User not found', { status: 404 })
  return user
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const me = await requireAccess({ request, context }, 'users')
  const [user, passkeys, { timeZone }] = await Promise.all([
    findUser(params.userId),
    listPasskeys(params.userId),
    siteSettingsFor(context),
  ])
  return {
    user,
    isMe: me.id === params.userId,
    passkeys: passkeys.map((passkey) => ({
      id: passkey.id,
      name: passkey.name,
      added: formatDate(passkey.createdAt, timeZone, 'dateTime'),
      lastUsed: passkey.lastUsedAt ? formatDate(passkey.lastUsedAt, timeZone, 'dateTime') : null,
    })),
  }
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const me = await requireRecentConfirmation({ request, context }, `/admin/users/${params.userId}`, 'users')
  const user = await findUser(params.userId)
  const submission = await parseFormSubmission(request, ManageUserSchema, { hideFields: ['password'] })
  // Which of the page's forms answers: only a known intent is sent back.
  const intent = INTENTS.find((known) => known === submission.payload.intent)
  if (submission.status !== 'success') {
    return data({ intent, result: submission.reply() }, { status: 400 })
  }
  const value = submission.value
  const isMe = me.id === user.id
  const target = { type: 'user' as const, id: user.id, label: `${user.name} <${user.email}>` }
  const by = auditSourceOf(me, context)
  try {
    switch (value.intent) {
      case 'rename':
        await renameUser(user.id, value.name)
        if (value.name !== user.name) {
          await recordAuditEvent({ by, action: 'user.renamed', target, detail: { from: user.name, to: value.name } })
        }
        return redirectWithToast(`/admin/users/${user.id}`, `The name is now ${value.name}.`)
      case 'change-role':
        await changeUserRole(user.id, value.role)
        if (value.role !== user.role) {
          await recordAuditEvent({ by, action: 'user.role-changed', target, detail: { from: user.role, to: value.role } })
        }
        // A changed role ends the user's sessions, one's own included.
        if (isMe && value.role !== user.role) return redirectWithToast('/login', 'Your role was changed. Please sign in again.')
        return redirectWithToast(`/admin/users/${user.id}`, `${user.name} is now: ${ROLE_LABELS[value.role]}.`)
      case 'reset-password':
        await resetUserPassword(user.id, value.password)
        await recordAuditEvent({ by, action: 'user.password-reset', target })
        if (isMe) return redirectWithToast('/login', 'Your password was reset. Please sign in again.')
        return redirectWithToast(`/admin/users/${user.id}`, `Password reset. ${user.name} has been signed out everywhere.`)
      case 'reset-link': {
        // Shown once on this page, to pass on by hand: only its hash is kept.
        const link = await issueResetLink(user.id, me)
        await recordAuditEvent({ by, action: 'user.reset-link-created', target })
        return {
          intent,
          result: submission.reply({ resetForm: true }),
          resetLink: resetLinkUrl(getSiteOrigin(request, context), link),
        }
      }
      case 'remove-passkey':
        if (await removePasskey(user.id, value.passkeyId)) await recordAuditEvent({ by, action: 'user.passkey-removed', target })
        return redirectWithToast(`/admin/users/${user.id}`, `The passkey no longer signs ${user.name} in.`)
      case 'remove':
        await removeUser(user.id)
        await recordAuditEvent({ by, action: 'user.removed', target, detail: { role: user.role } })
        return redirectWithToast(isMe ? '/' : '/admin/users', `${user.name} was removed.`)
    }
  } catch (error) {
    if (!(error instanceof UserRuleError)) throw error
    return data({ intent, result: submission.reply({ formErrors: [error.message] }) }, { status: 400 })
  }
}

function useManageForm(intent: Intent, actionData: Route.ComponentProps['actionData'], defaultValue?: Record<string, string>) {
  return useForm({
    id: intent,
    defaultValue,
    lastResult: actionData?.intent === intent ? (actionData.result as SubmissionResult<string[]>) : undefined,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ManageUserSchema }),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  })
}

export default function ManageUser({ loaderData, actionData }: Route.ComponentProps) {
  const { user, isMe } = loaderData
  const [nameForm, nameFields] = useManageForm('rename', actionData, { name: user.name })
  const [roleForm, roleFields] = useManageForm('change-role', actionData, { role: user.role })
  const [passwordForm, passwordFields] = useManageForm('reset-password', actionData)
  const removeErrors = actionData?.intent === 'remove' ? actionData.result.error?.[''] : undefined
  const resetLink = actionData && 'resetLink' in actionData ? actionData.resetLink : undefined
  return (
    <div className="stack">
      <BackLink to="/admin/users">All users</BackLink>
      <h1>{user.name}</h1>
      <p className="muted">
        {user.email}
        {isMe ? ' (you)' : ''}
      </p>

      <section className="card admin-section" aria-labelledby="name-heading">
        <h2 id="name-heading">Name</h2>
        <Form method="post" className="form" {...getFormProps(nameForm)}>
          <input type="hidden" name="intent" value="rename" />
          <ErrorList id={nameForm.errorId} errors={nameForm.errors} variant="form" />
          <Field
            meta={nameFields.name}
            label="Name"
            autoComplete="off"
            hint="How the site greets them in its e-mails and names them in invitations and the audit log."
            required
          />
          <div className="button-row">
            <button type="submit" className="button">
              Change name
            </button>
          </div>
        </Form>
      </section>

      <section className="card admin-section" aria-labelledby="role-heading">
        <h2 id="role-heading">Role</h2>
        <Form method="post" className="form" {...getFormProps(roleForm)}>
          <input type="hidden" name="intent" value="change-role" />
          <ErrorList id={roleForm.errorId} errors={roleForm.errors} variant="form" />
          <SelectField
            meta={roleFields.role}
            label="Role"
            options={ROLE_OPTIONS}
            hint={isMe ? 'Changing your own role signs you out.' : 'Changing the role signs this user out everywhere.'}
          />
          <div className="button-row">
            <button type="submit" className="button">
              Change role
            </button>
          </div>
        </Form>
      </section>

      <section className="card admin-section" aria-labelledby="password-heading">
        <h2 id="password-heading">Reset password</h2>
        <Form method="post" className="form" {...getFormProps(passwordForm)}>
          <input type="hidden" name="intent" value="reset-password" />
          <ErrorList id={passwordForm.errorId} errors={passwordForm.errors} variant="form" />
          <Field
            meta={passwordFields.password}
            label="New password"
            type="password"
            autoComplete="new-password"
            hint={`At least ${PASSWORD_MIN_LENGTH} characters. The user is signed out everywhere and their passkeys are removed.`}
            required
          />
          <div className="button-row">
            <button type="submit" className="button">
              Reset password
            </button>
          </div>
        </Form>
      </section>

      <section className="card admin-section" aria-labelledby="reset-link-heading">
        <h2 id="reset-link-heading">Link to choose a new password</h2>
        <Form method="post" className="form">
          {resetLink ? (
            <div className="field">
              <label className="field-label" htmlFor="reset-link">
                Pass this link on to {user.name} (by WhatsApp or in person)
              </label>
              <p id="reset-link-hint" className="field-hint">
                It works once, within an hour, and stops working if the password is changed another way.
              </p>
              <input
                id="reset-link"
                className="field-input"
                readOnly
                value={resetLink}
                aria-describedby="reset-link-hint"
                onFocus={(e) => e.currentTarget.select()}
              />
            </div>
          ) : (
            <p>For someone who forgot their password: a one-time link, valid for an hour, to pass on yourself.</p>
          )}
          <input type="hidden" name="intent" value="reset-link" />
          <div className="button-row">
            <button type="submit" className="button-secondary">
              {resetLink ? 'Make another link' : 'Make a link'}
            </button>
          </div>
        </Form>
      </section>

      <section className="card admin-section" aria-labelledby="passkeys-heading">
        <h2 id="passkeys-heading">Passkeys</h2>
        {loaderData.passkeys.length > 0 ? (
          <>
            <p>{`These sign ${user.name} in without a password. Remove one that was lost or that they do not recognise.`}</p>
            <PasskeyList passkeys={loaderData.passkeys} signsIn={user.name} />
          </>
        ) : (
          <p className="muted">{`${user.name} has no passkeys. Resetting the password removes any they add.`}</p>
        )}
      </section>

      <section className="card admin-section" aria-labelledby="remove-heading">
        <h2 id="remove-heading">Remove user</h2>
        <p>They are signed out at once and can no longer sign in.</p>
        <ErrorList errors={removeErrors} variant="form" />
        <ConfirmButton
          hiddenFields={{ intent: 'remove' }}
          label="Remove user"
          confirmText={`Are you sure you want to remove ${user.name}?`}
          confirmLabel="Remove"
        />
      </section>
    </div>
  )
}
