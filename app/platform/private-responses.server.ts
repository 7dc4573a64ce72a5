import type { MiddlewareFunction } from 'react-router'
import { answerNoticingSignedInUser } from './auth.server'
import { CACHE_PROFILES } from './http-caching'

/**
 * Root middleware: an answer that depends on the visitor (made for a signed-in user, who may
 * find their name, e-mail and id in it, or setting a cookie) is never kept by the browser or by
 * any cache. An anonymous visitor's page that says nothing of its own may be kept by any cache
 * that asks again before each use (CACHE_PROFILES.publicPage); one signed in has a cookie, so
 * a shared cache keeps its copy apart.
 */
export const keepPersonalResponsesPrivate: MiddlewareFunction<Response> = async (args, next) => {
  const { response, forSignedInUser } = await answerNoticingSignedInUser(args, next)
  const { headers } = response
  if (forSignedInUser || headers.has('Set-Cookie')) {
    headers.set('Cache-Control', CACHE_PROFILES.personal)
  } else if (args.request.method === 'GET' && response.status === 200 && !headers.has('Cache-Control')) {
    headers.set('Cache-Control', CACHE_PROFILES.publicPage)
    if (!/\bcookie\b/i.test(headers.get('Vary') ?? '')) headers.append('Vary', 'Cookie')
  }
  return response
}
