import type { MiddlewareFunction } from 'react-router'
import { answerNoticingSignedInUser } from './auth.server'
import { CACHE_PROFILES } from './http-caching'

/**
 * Root middleware: an answer that depends on the visitor (made for a signed-in user, who may
 * find their name, e-mail and id in it, or setting a cookie) is never kept by the browser or by
 * any cache. Anonymous pages carry no such header, so the page cache may keep them; it marks
 * those it keeps as public (server/page-cache.ts).
 */
export const keepPersonalResponsesPrivate: MiddlewareFunction<Response> = async (args, next) => {
  const { response, forSignedInUser } = await answerNoticingSignedInUser(args, next)
  if (forSignedInUser || response.headers.has('Set-Cookie')) response.headers.set('Cache-Control', CACHE_PROFILES.personal)
  return response
}
