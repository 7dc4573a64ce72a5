import { getFormProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, Link } from 'react-router'
import type { Route } from './+types/account'
import { auditSourceOf, recordAuditEvent } from '~/modules/audit/audit.service.server'
import { ErrorList, Field, NewPasswordFields } from '~/components/forms'
import { useIsSubmitting } from '~/components/use-is-submitting'
import { ChangeOwnPasswordSchema, ROLE_LABELS } from '~/modules/users/users.schema'
import { getTwoStepStatus } from '~/modules/users/two-step.server'
import { changeOwnPassword, UserRuleError } from '~/modules/users/users.service.server'
import { describeDevice } from '~/modules/users/devices.server'
import { siteSettingsFor } from '~/modules/settings/settings.context.server'
import { requireAccess } from '~/platform/auth.server'
import { requestInfoContext } from '~/platform/request-context'
import { deviceOf, listUserSessions, readSessionId, sessionCookie } from '~/platform/session.server'
import { formatDate } from '~/platform/dates'
import { redirectWithToast } from '~/platform/toast.server'
import { parseFormSubmission } from '~/platform/form-submission.server'

export const meta: Route.MetaFunction = () => [{ title: 'My account | Site admin' }]

const SENSITIVE = ['currentPassword', 'newPassword', 'confirmPassword']

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireAccess({ request, context }, 'account')
  const [sessions, { timeZone }, twoStep] = await Promise.all([
    listUserSessions(user.id, readSessionId(request)),
    siteSettingsFor(context),
    getTwoStepStatus(user.id),
  ])
  return {
    name: user.name,
    email: user.email,
    role: ROLE_LABELS[user.role],
    twoStepOn: twoStep.enabled,
    devices: sessions.map((session) => ({
      key: session.key,
      current: session.current,
      device: describeDevice(session.userAgent),
      address: session.clientAddress,
      since: formatDate(session.createdAt, timeZone, 'dateTime'),
      lastSeen: formatDate(session.lastSeenAt, timeZone, 'dateTime'),
    })),
  }
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireAccess({ request, context }, 'account')
  const submission = await parseFormSubmission(request, ChangeOwnPasswordSchema, { hideFields: SENSITIVE })
  if (submission.status !== 'success') {
    return data({ result: submission.reply() }, { status: 400 })
  }
  try {
    const device = deviceOf(request, context.get(requestInfoContext).clientIp)
    const session = await changeOwnPassword(user.id, submission.value.currentPassword, submission.value.newPassword, device)
    await recordAuditEvent({
      by: auditSourceOf(user, context),
      action: 'account.password-changed',
      target: { type: 'user', id: user.id, label: `${user.name} <${user.email}>` },
    })
    return redirectWithToast('/admin/account', 'Your password has been changed. Other devices have been signed out.', 'success', {
      headers: { 'Set-Cookie': sessionCookie(session, context.get(requestInfoContext).secure) },
    })
  } catch (error) {
    if (!(error instanceof UserRuleError) || !error.field) throw error
    return data({ result: submission.reply({ fieldErrors: { [error.field]: [error.message] } }) }, { status: 400 })
  }
}

export default function Account({ loaderData, actionData }: Route.ComponentProps) {
  const [form, fields] = useForm({
    lastResult: actionData?.result,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ChangeOwnPasswordSchema }),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  })
  const saving = useIsSubmitting()
  return (
    <div className="stack">
      <h1>My account</h1>
      <p className="muted">
        {loaderData.name} · {loaderData.email} · {loaderData.role}
      </p>
      <div className="button-row">
        <Link to="/admin/account/details" className="button-secondary">
          Change your name or e-mail
        </Link>
      </div>
      <section className="card admin-section" aria-labelledby="two-step-heading">
        <h2 id="two-step-heading">Two-step sign-in</h2>
        <p>
          {loaderData.twoStepOn
            ? 'On: you sign in with your password and a code from your authenticator app.'
            : 'Off: only your password protects your account.'}
        </p>
        <div className="button-row">
          <Link to="/admin/account/two-step" className={loaderData.twoStepOn ? 'button-secondary' : 'button'}>
            {loaderData.twoStepOn ? 'Manage two-step sign-in' : 'Set up two-step sign-in'}
          </Link>
        </div>
      </section>
      <section className="card admin-section" aria-labelledby="password-heading">
        <h2 id="password-heading">Change password</h2>
        <Form method="post" className="form" {...getFormProps(form)}>
          <ErrorList id={form.errorId} errors={form.errors} variant="form" />
          <Field
            meta={fields.currentPassword}
            label="Current password"
            type="password"
            autoComplete="current-password"
            required
          />
          <NewPasswordFields newPassword={fields.newPassword} confirmPassword={fields.confirmPassword} />
          <div className="button-row">
            <button type="submit" className="button" disabled={saving}>
              {saving ? 'Saving...' : 'Change password'}
            </button>
          </div>
        </Form>
      </section>
      <Devices devices={loaderData.devices} />
    </div>
  )
}

function Devices({ devices }: { devices: Route.ComponentProps['loaderData']['devices'] }) {
  const others = devices.filter((device) => !device.current).length
  return (
    <section id="devices" className="card admin-section" aria-labelledby="devices-heading">
      <h2 id="devices-heading">Where you are signed in</h2>
      <p className="muted">
        A device you do not recognise, or one you lost? Sign it out, then change your password. Last active times are updated
        every few minutes.
      </p>
      <ul className="device-list">
        {devices.map((device) => (
          <li key={device.key} className="device">
            <div>
              <p className="device-name">
                {device.device}
                {device.current ? <span className="admin-badge">this device</span> : null}
              </p>
              <p className="device-facts muted">
                Signed in {device.since} · last active {device.lastSeen}
                {device.address ? ` · from ${device.address}` : ''}
              </p>
            </div>
            {device.current ? null : (
              <Form method="post" action="/admin/account/devices">
                <input type="hidden" name="intent" value="sign-out-device" />
                <input type="hidden" name="device" value={device.key} />
                <button
                  type="submit"
                  className="button-secondary"
                  aria-label={`Sign out ${device.device}, signed in ${device.since}`}
                >
                  Sign out
                </button>
              </Form>
            )}
          </li>
        ))}
      </ul>
      {others > 0 ? (
        <Form method="post" action="/admin/account/devices" className="button-row">
          <input type="hidden" name="intent" value="sign-out-others" />
          <button type="submit" className="button">
            Sign out everywhere else
          </button>
        </Form>
      ) : null}
    </section>
  )
}
