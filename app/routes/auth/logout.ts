import { LogoutSchema } from '~/modules/users/users.schema'
import { safeRedirectPath } from '~/platform/auth.server'
import { parseFormSubmission } from '~/platform/form-submission.server'
import { requestInfoContext } from '~/platform/request-context'
import { clearedSessionCookie, readSessionId, revokeSession } from '~/platform/session.server'
import { redirectWithToast } from '~/platform/toast.server'
import type { Route } from './+types/logout'

/** Signing out is a POST, so a link or an image elsewhere cannot sign anyone out. */
export function loader() {
  return new Response('Use the Sign out button.', { status: 405, headers: { Allow: 'POST' } })
}

/** Back to the public page the sign-out came from (a same-site path only); admin pages would only ask to sign in. */
function pageAfterSignOut(redirectTo: string | undefined): string {
  const path = safeRedirectPath(redirectTo, '/')
  return path === '/admin' || path.startsWith('/admin/') || path.startsWith('/admin?') ? '/' : path
}

export async function action({ request, context }: Route.ActionArgs) {
  const sessionId = readSessionId(request)
  if (sessionId) await revokeSession(sessionId)
  // A sign-out always signs out: an unreadable form only loses the way back.
  const submission = await parseFormSubmission(request, LogoutSchema)
  const back = submission.status === 'success' ? submission.value.redirectTo : undefined
  const { secure } = context.get(requestInfoContext)
  return redirectWithToast(pageAfterSignOut(back), 'You have been signed out.', 'success', {
    headers: { 'Set-Cookie': clearedSessionCookie(secure) },
  })
}
