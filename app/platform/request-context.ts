import { createContext } from 'react-router'

/** Per-request facts the HTTP server knows and the app needs (set in server/app.ts). */
export interface RequestInfo {
  nonce: string
  clientIp: string
  secure: boolean
  /** The address and port the connection reached this server on, as a URL host (`127.0.0.1:3000`, `[::1]:3000`). */
  serverAddress: string
  /**
   * The form posted was larger than MAX_BODY_MB and was not read: the server shows the page
   * (a GET of the same address) with a notice instead (see server/app.ts).
   */
  bodyTooLarge?: boolean
}

// No default value: a request that reaches the app without these facts fails loudly ("No value
// found for context") instead of sharing one made-up client address with every other such request.
export const requestInfoContext = createContext<RequestInfo>()
