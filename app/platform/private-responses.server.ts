import { createContext, type MiddlewareFunction } from 'react-router'
import { answerNoticingSignedInUser } from './auth.server'
import { markContentChanged } from './content-version.server'
import { readSessionId } from './session.server'

/**
 * Root middleware: an answer that depends on the visitor (made for a signed-in user, who may
 * find their name, e-mail and id in it, or setting a cookie) is never kept by the browser or by
 * any cache. Anonymous pages carry no such header, so a page cache may keep them.
 */
export const keepPersonalResponsesPrivate: MiddlewareFunction<Response> = async ({ request }, next) => {
  const { response, forSignedInUser } = await answerNoticingSignedInUser(request, next)
  if (forSignedInUser || response.headers.has('Set-Cookie')) response.headers.set('Cache-Control', 'private, no-store')
  return response
}

/**
 * Root middleware: a form that a signed-in user sent successfully may have changed what public
 * pages show (an article, a setting, a product...), so cached pages are made anew. Visitors'
 * own forms (the contact form) change no public page and leave the cache alone.
 */
export const refreshCachedPagesAfterChanges: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const response = await next()
  const signedIn = readSessionId(request) !== null
  const mayChangePages = request.method !== 'GET' && request.method !== 'HEAD' && !context.get(changesNoPublicPageContext)
  if (mayChangePages && signedIn && response.status < 400) await markContentChanged()
  return response
}

const changesNoPublicPageContext = createContext(false)

/**
 * Route middleware of forms that never change what public pages show (upload chunks, preview
 * links, one's own account, messages): kept pages stay, and a chunk costs no write of its own.
 */
export const changesNoPublicPage: MiddlewareFunction<Response> = ({ context }, next) => {
  context.set(changesNoPublicPageContext, true)
  return next()
}
