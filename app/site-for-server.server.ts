import type { RouterContext } from 'react-router'
import { readContentVersion } from '~/platform/content-version.server'
import { requestInfoContext, type RequestInfo } from '~/platform/request-context'
import { SESSION_COOKIE } from '~/platform/session.server'
import { answerKnownRefusedSignIn } from '~/routes/auth/refused-sign-in-page.server'
import { closeServer, prepareServer } from '~/startup.server'

/** What the HTTP server (server/) asks of the app, beside React Router's request handler. */
export interface SiteForServer {
  prepareServer: () => Promise<{ setupPath: string | null }>
  closeServer: () => Promise<void>
  /** The key the server sets the request's facts under: the build's own, not a second copy. */
  requestInfoContext: RouterContext<RequestInfo>
  /** Changes whenever anything a public page shows changes (the page cache's key). */
  readContentVersion: () => Promise<string>
  SESSION_COOKIE: string
  answerKnownRefusedSignIn: (request: Request, clientIp: string) => Response | null
}

export const siteForServer: SiteForServer = {
  prepareServer,
  closeServer,
  requestInfoContext,
  readContentVersion,
  SESSION_COOKIE,
  answerKnownRefusedSignIn,
}
