import { createContext } from 'react-router'

/** Per-request facts the HTTP server knows and the app needs (set in server/app.ts). */
export interface RequestInfo {
  nonce: string
  clientIp: string
  secure: boolean
}

export const requestInfoContext = createContext<RequestInfo>({ nonce: '', clientIp: 'unknown', secure: false })
