import { data, Form, redirect, useRevalidator } from 'react-router'
import { BackLink } from '~/components/back-link'
import type { Route } from './+types/account-two-step'
import { AuthenticatorSetup, RecoveryCodes } from '~/components/two-step'
import { ConfirmButton } from '~/components/confirm-button'
import { PasskeyList } from '~/components/passkey-list'
import { AddPasskeyForm } from '~/components/passkey-buttons'
import { ErrorList } from '~/components/forms'
import { auditSourceOf, recordAuditEvent } from '~/modules/audit/audit.service.server'
import { siteSettingsFor } from '~/modules/settings/settings.context.server'
import { getSiteSettings } from '~/modules/settings/settings.queries.server'
import { tellOfSignInChange } from '~/modules/users/account-emails.server'
import { listPasskeys, removePasskey } from '~/modules/users/passkeys.server'
import { ManageTwoStepSchema, TWO_STEP_MESSAGES } from '~/modules/users/two-step.schema'
import {
  authenticatorQrSvg,
  beginAuthenticatorSetup,
  clearCodeLimits,
  confirmAuthenticator,
  getRolesRequiringTwoStep,
  getTwoStepStatus,
  hitCodeLimits,
  replaceRecoveryCodes,
  turnOffTwoStep,
} from '~/modules/users/two-step.server'
import { requireRecentConfirmation } from '~/platform/auth.server'
import { formatDate } from '~/platform/dates'
import { clientRateLimitKey } from '~/platform/client-address.server'
import { minutesToWait, retryAfterHeaders } from '~/platform/rate-limit.server'
import { requestInfoContext } from '~/platform/request-context'
import { deviceOf } from '~/platform/session.server'
import { getSiteOrigin } from '~/platform/site-url.server'
import { redirectWithToast } from '~/platform/toast.server'
import { parseFormSubmission } from '~/platform/form-submission.server'

export const meta: Route.MetaFunction = () => [{ title: 'Two-step sign-in | Site admin' }]

const PAGE = '/admin/account/two-step'

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireRecentConfirmation({ request, context }, PAGE)
  const [status, requiredRoles, passkeys] = await Promise.all([
    getTwoStepStatus(user.id),
    getRolesRequiringTwoStep(),
    listPasskeys(user.id),
  ])
  let setup: { secret: string; qrSvg: string } | null = null
  if (!status.enabled && status.pendingSecret) {
    const { organisationName } = await getSiteSettings()
    const qrSvg = await authenticatorQrSvg({ secret: status.pendingSecret, issuer: organisationName, accountName: user.email })
    setup = { secret: status.pendingSecret, qrSvg }
  }
  const { timeZone } = await siteSettingsFor(context)
  return {
    passkeys: passkeys.map((passkey) => ({
      id: passkey.id,
      name: passkey.name,
      added: formatDate(passkey.createdAt, timeZone, 'dateTime'),
      lastUsed: passkey.lastUsedAt ? formatDate(passkey.lastUsedAt, timeZone, 'dateTime') : null,
    })),
    enabled: status.enabled,
    recoveryCodesLeft: status.recoveryCodesLeft,
    required: requiredRoles.includes(user.role),
    setup,
  }
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireRecentConfirmation({ request, context }, PAGE)
  const submission = await parseFormSubmission(request, ManageTwoStepSchema, { hideFields: ['code'] })
  if (submission.status !== 'success') return data({ result: submission.reply(), recoveryCodes: null }, { status: 400 })
  const by = auditSourceOf(user, context)
  const target = { type: 'user' as const, id: user.id, label: `${user.name} <${user.email}>` }
  const input = submission.value
  if (input.intent === 'begin') {
    await beginAuthenticatorSetup(user.id)
    return redirect(PAGE)
  }
  if (input.intent === 'remove-passkey') {
    if (await removePasskey(user.id, input.passkeyId)) await recordAuditEvent({ by, action: 'account.passkey-removed', target })
    return redirectWithToast(PAGE, 'The passkey has been removed.')
  }
  if (input.intent === 'confirm') {
    const clientKey = clientRateLimitKey(context.get(requestInfoContext).clientIp)
    const verdict = await hitCodeLimits(user.id, clientKey)
    if (verdict.limited) {
      const message = TWO_STEP_MESSAGES.tooMany(minutesToWait(verdict.retryAfterSeconds))
      return data(
        { result: submission.reply({ formErrors: [message] }), recoveryCodes: null },
        { status: 429, headers: retryAfterHeaders(verdict) },
      )
    }
    const recoveryCodes = await confirmAuthenticator(user.id, input.code)
    if (!recoveryCodes) {
      return data(
        { result: submission.reply({ formErrors: [TWO_STEP_MESSAGES.wrongSetupCode] }), recoveryCodes: null },
        { status: 400 },
      )
    }
    await clearCodeLimits(user.id, clientKey)
    await recordAuditEvent({ by, action: 'account.two-step-enabled', target })
    return { result: null, recoveryCodes }
  }
  const status = await getTwoStepStatus(user.id)
  if (!status.enabled) return redirect(PAGE)
  if (input.intent === 'new-recovery-codes') {
    const recoveryCodes = await replaceRecoveryCodes(user.id)
    await recordAuditEvent({ by, action: 'account.recovery-codes-renewed', target })
    return { result: null, recoveryCodes }
  }
  if ((await getRolesRequiringTwoStep()).includes(user.role)) {
    return data(
      { result: submission.reply({ formErrors: [TWO_STEP_MESSAGES.requiredByRole] }), recoveryCodes: null },
      { status: 400 },
    )
  }
  await turnOffTwoStep(user.id)
  await recordAuditEvent({ by, action: 'account.two-step-disabled', target })
  tellOfSignInChange(user, 'Two-step sign-in was turned off', {
    device: deviceOf(request, context.get(requestInfoContext).clientIp),
    siteOrigin: getSiteOrigin(request, context),
  })
  return redirectWithToast(PAGE, 'Two-step sign-in is off.')
}

export default function AccountTwoStep({ loaderData, actionData }: Route.ComponentProps) {
  const error = actionData?.result?.error?.['']?.[0]
  const revalidator = useRevalidator()
  return (
    <div className="stack">
      <BackLink to="/admin/account">My account</BackLink>
      <h1>Two-step sign-in</h1>
      <p className="muted">
        With two-step sign-in, someone who learns your password still cannot sign in: they would also need a code from an app on
        your phone.
      </p>
      {actionData?.recoveryCodes ? <RecoveryCodes codes={actionData.recoveryCodes} /> : null}
      {!loaderData.setup ? <ErrorList errors={error ? [error] : undefined} variant="form" /> : null}
      <section className="card admin-section" aria-labelledby="passkeys-heading">
        <h2 id="passkeys-heading">Passkeys</h2>
        <p>
          A passkey signs you in without your password, on a device that keeps it (unlocked with your fingerprint, face or screen
          lock), or with a security key.
        </p>
        {loaderData.passkeys.length > 0 ? (
          <PasskeyList passkeys={loaderData.passkeys} signsIn="you" />
        ) : (
          <p className="muted">You have no passkeys yet.</p>
        )}
        <AddPasskeyForm onAdded={() => void revalidator.revalidate()} />
      </section>
      <section className="card admin-section" aria-labelledby="app-heading">
        <h2 id="app-heading">Authenticator app</h2>
        {loaderData.enabled ? (
          <>
            <p>
              <strong>On.</strong> You have {loaderData.recoveryCodesLeft} unused recovery code
              {loaderData.recoveryCodesLeft === 1 ? '' : 's'}.
            </p>
            <div className="button-row">
              <Form method="post">
                <input type="hidden" name="intent" value="new-recovery-codes" />
                <button type="submit" className="button-secondary">
                  Make new recovery codes
                </button>
              </Form>
              {loaderData.required ? (
                <p className="field-hint">Required for your role, so it cannot be turned off.</p>
              ) : (
                <ConfirmButton
                  hiddenFields={{ intent: 'turn-off' }}
                  label="Turn off"
                  confirmText="Turn off two-step sign-in? Only your password will protect your account."
                  confirmLabel="Turn off"
                />
              )}
            </div>
          </>
        ) : loaderData.setup ? (
          <AuthenticatorSetup
            qrSvg={loaderData.setup.qrSvg}
            secret={loaderData.setup.secret}
            lastResult={actionData?.result ?? undefined}
            intent="confirm"
          />
        ) : (
          <Form method="post">
            <p>Off.</p>
            <input type="hidden" name="intent" value="begin" />
            <button type="submit" className="button">
              Set up an authenticator app
            </button>
          </Form>
        )}
      </section>
    </div>
  )
}
