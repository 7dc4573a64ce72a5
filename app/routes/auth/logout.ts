import { requestInfoContext } from '~/platform/request-context'
import { clearedSessionCookie, readSessionId, revokeSession } from '~/platform/session.server'
import { redirectWithToast } from '~/platform/toast.server'
import type { Route } from './+types/logout'

/** Signing out is a POST, so a link or an image elsewhere cannot sign anyone out. */
export function loader() {
  return new Response('Use the Sign out button.', { status: 405, headers: { Allow: 'POST' } })
}

export async function action({ request, context }: Route.ActionArgs) {
  const sessionId = readSessionId(request)
  if (sessionId) await revokeSession(sessionId)
  const { secure } = context.get(requestInfoContext)
  return redirectWithToast('/', 'You have been signed out.', 'success', {
    headers: { 'Set-Cookie': clearedSessionCookie(secure) },
  })
}
