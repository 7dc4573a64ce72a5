import { createContext, data, redirect, type RouterContextProvider } from 'react-router'
import { canManage, type SectionName } from './access'
import { getSessionUser, isConfirmedRecently, readSessionId, type SessionUser } from './session.server'
import { pageAddressOf } from './page-address.server'

export type { SessionUser }

/** What a loader, action or middleware is given and the guards below need. */
export interface RequestAndContext {
  request: Request
  context: Readonly<RouterContextProvider>
}

// Middleware, loader and action of one request ask in turn; the session is looked up once.
const usersByRequest = new WeakMap<Request, Promise<SessionUser | null>>()

/**
 * The session lookups made while one answer is prepared. The loaders of a page (a GET, which
 * changes nothing) share one lookup per session, whether or not they get the same Request object.
 * After an action (which may end or change the session) the loaders get a new Request and look
 * again.
 */
interface LookupsOfAnswer {
  shared: Map<string, Promise<SessionUser | null>> | null
  all: Promise<SessionUser | null>[]
}
// Set by the root middleware (keepPersonalResponsesPrivate); null for a loader called on its own.
const lookupsOfAnswer = createContext<LookupsOfAnswer | null>(null)

export function getOptionalUser({ request, context }: RequestAndContext): Promise<SessionUser | null> {
  const answer = context.get(lookupsOfAnswer)
  let user = usersByRequest.get(request)
  if (!user) {
    const sessionId = readSessionId(request)
    user = sessionId ? (answer?.shared?.get(sessionId) ?? getSessionUser(sessionId)) : Promise.resolve(null)
    if (sessionId) answer?.shared?.set(sessionId, user)
    usersByRequest.set(request, user)
  }
  answer?.all.push(user)
  return user
}

/** Prepares an answer and tells whether it was made for a signed-in user (it looked one up and found one). */
export async function answerNoticingSignedInUser(
  { request, context }: RequestAndContext,
  answer: () => Promise<Response>,
): Promise<{ response: Response; forSignedInUser: boolean }> {
  const readOnly = request.method === 'GET' || request.method === 'HEAD'
  const lookups: LookupsOfAnswer = { shared: readOnly ? new Map() : null, all: [] }
  context.set(lookupsOfAnswer, lookups)
  const response = await answer()
  const users = await Promise.all(lookups.all.map((lookup) => lookup.catch(() => null)))
  return { response, forSignedInUser: users.some((user) => user !== null) }
}

/** The signed-in user; anyone else is sent to the sign-in page and brought back afterwards. */
export async function requireUser(args: RequestAndContext): Promise<SessionUser> {
  const user = await getOptionalUser(args)
  if (user) return user
  const url = pageAddressOf(args.request)
  const back = url.pathname + (url.searchParams.size ? `?${url.searchParams}` : '')
  throw redirect(`/login?${new URLSearchParams({ redirectTo: back })}`)
}

/** The signed-in user if they may manage the section (see access.ts); anyone else signed in gets 403. */
export async function requireAccess(args: RequestAndContext, section: SectionName): Promise<SessionUser> {
  const user = await requireUser(args)
  if (!canManage(user, section)) throw data('You do not have permission to open this page.', { status: 403 })
  return user
}

/** Where a signed-in person types their password again before changing how they sign in. */
export const CONFIRM_PAGE = '/admin/account/confirm'

/** Whether the request's session signed in, or had its password typed again, within the confirmation window. */
export async function isRecentlyConfirmed(request: Request): Promise<boolean> {
  const sessionId = readSessionId(request)
  return sessionId !== null && (await isConfirmedRecently(sessionId))
}

/**
 * The signed-in user, for a page or an action that changes how an account signs in (their own,
 * or another's: a password, a link, a role, a new account): only within the confirmation window,
 * so a session alone (a borrowed device, a stolen cookie) is not enough. Anyone else is asked for
 * their password first and brought back to `returnTo`.
 */
export async function requireRecentConfirmation(
  args: RequestAndContext,
  returnTo: string,
  section: SectionName = 'account',
): Promise<SessionUser> {
  const user = await requireAccess(args, section)
  if (await isRecentlyConfirmed(args.request)) return user
  throw redirect(`${CONFIRM_PAGE}?${new URLSearchParams({ redirectTo: returnTo })}`)
}

/**
 * A same-site path to go to after sign-in, or the fallback. Refuses absolute URLs,
 * protocol-relative ones (`//evil`, `/\evil`) and anything with control characters.
 */
export function safeRedirectPath(target: string | null | undefined, fallback = '/admin'): string {
  if (!target || !target.startsWith('/') || target.startsWith('//') || target.startsWith('/\\')) return fallback
  if (/[\u0000-\u001f\u007f\\]/.test(target)) return fallback
  try {
    const base = 'http://site.invalid'
    const url = new URL(target, base)
    if (url.origin !== base) return fallback
    // Dot segments can normalise to a protocol-relative path ('/.//evil.com' becomes '//evil.com').
    const path = url.pathname + url.search + url.hash
    return path.startsWith('//') ? fallback : path
  } catch {
    return fallback
  }
}
