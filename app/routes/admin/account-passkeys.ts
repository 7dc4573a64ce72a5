import { data } from 'react-router'
import type { Route } from './+types/account-passkeys'
import { auditSourceOf, recordAuditEvent } from '~/modules/audit/audit.service.server'
import { getSiteSettings } from '~/modules/settings/settings.queries.server'
import { addPasskey, PasskeyError, passkeyRegistrationOptions } from '~/modules/users/passkeys.server'
import { AddPasskeySchema } from '~/modules/users/two-step.schema'
import { tellOfSignInChange } from '~/modules/users/account-emails.server'
import { isRecentlyConfirmed, requireAccess } from '~/platform/auth.server'
import { parseFormSubmission } from '~/platform/form-submission.server'
import { requestInfoContext } from '~/platform/request-context'
import { deviceOf } from '~/platform/session.server'
import { getSiteOrigin } from '~/platform/site-url.server'

const PASSKEY_NEEDS_CONFIRMATION =
  'For your safety, enter your password again before adding a passkey: reload this page to be asked for it.'

/** Adding a passkey from /admin/account/two-step (with JavaScript: the browser's WebAuthn API). */
export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireAccess({ request, context }, 'account')
  // The page that offers this asked for the password; a page left open past the window asks again.
  if (!(await isRecentlyConfirmed(request))) {
    return data({ error: PASSKEY_NEEDS_CONFIRMATION }, { status: 403 })
  }
  const submission = await parseFormSubmission(request, AddPasskeySchema)
  if (submission.status !== 'success') {
    const message = Object.values(submission.error ?? {}).flat()[0]
    return data({ error: typeof message === 'string' ? message : 'The request could not be read.' }, { status: 400 })
  }
  const rp = { origin: getSiteOrigin(request, context), name: (await getSiteSettings()).organisationName }
  try {
    if (submission.value.intent === 'options') return { options: await passkeyRegistrationOptions(user, rp) }
    let response
    try {
      response = JSON.parse(submission.value.response)
    } catch {
      throw new PasskeyError('The passkey could not be added. Please try again.')
    }
    await addPasskey(user, rp, submission.value.name, response)
  } catch (error) {
    if (error instanceof PasskeyError) return data({ error: error.message }, { status: 400 })
    throw error
  }
  await recordAuditEvent({
    by: auditSourceOf(user, context),
    action: 'account.passkey-added',
    target: { type: 'user', id: user.id, label: `${user.name} <${user.email}>` },
    detail: { name: submission.value.name },
  })
  tellOfSignInChange(user, 'A passkey was added', {
    device: deviceOf(request, context.get(requestInfoContext).clientIp),
    siteOrigin: rp.origin,
  })
  return { added: true }
}
