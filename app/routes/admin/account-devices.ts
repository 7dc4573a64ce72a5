import { data } from 'react-router'
import type { Route } from './+types/account-devices'
import { auditSourceOf, recordAuditEvent } from '~/modules/audit/audit.service.server'
import { SignOutDevicesSchema } from '~/modules/users/users.schema'
import { requireAccess } from '~/platform/auth.server'
import { parseFormSubmission } from '~/platform/form-submission.server'
import { readSessionId, revokeOtherSessions } from '~/platform/session.server'
import { redirectWithToast } from '~/platform/toast.server'

/** The sign-out buttons of "My account"'s list of devices (the page itself is account.tsx); no page of its own. */

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireAccess({ request, context }, 'account')
  const submission = await parseFormSubmission(request, SignOutDevicesSchema)
  const current = readSessionId(request)
  if (submission.status !== 'success' || !current) return data('This form was not understood.', { status: 400 })
  const value = submission.value
  const everywhereElse = value.intent === 'sign-out-others'
  const ended = await revokeOtherSessions(user.id, current, value.intent === 'sign-out-device' ? value.device : null)
  if (!everywhereElse && ended === 0) {
    return redirectWithToast('/admin/account#devices', 'That device was already signed out.', 'info')
  }
  await recordAuditEvent({
    by: auditSourceOf(user, context),
    action: everywhereElse ? 'account.signed-out-elsewhere' : 'account.device-signed-out',
    detail: { sessions: ended },
  })
  const message = everywhereElse ? 'Every other device has been signed out.' : 'That device has been signed out.'
  return redirectWithToast('/admin/account#devices', message, 'success')
}
