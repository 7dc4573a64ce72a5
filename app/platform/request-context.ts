import { createContext } from 'react-router'

/** Per-request facts the HTTP server knows and the app needs (set in server/app.ts). */
export interface RequestInfo {
  nonce: string
  clientIp: string
  secure: boolean
  /** The address and port the connection reached this server on, as a URL host (`127.0.0.1:3000`, `[::1]:3000`). */
  serverAddress: string
}

export const requestInfoContext = createContext<RequestInfo>({
  nonce: '',
  clientIp: 'unknown',
  secure: false,
  serverAddress: 'localhost',
})
