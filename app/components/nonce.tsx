import { createContext, useContext } from 'react'

// The CSP nonce only exists on the server; in the browser the value is ''.
const NonceContext = createContext('')

export const NonceProvider = NonceContext.Provider

export function useNonce(): string {
  return useContext(NonceContext)
}
