import { useEffect } from 'react'
import { useNonce } from './nonce'

const SERVICE_WORKER = '/sw.js'

/**
 * Starts the service worker that keeps the public pages a visitor reads for reading offline
 * (public/sw.js). It runs once the page's scripts have started, so it never delays the page.
 */
export function useOfflineReading() {
  useEffect(() => {
    if (import.meta.env.DEV || !('serviceWorker' in navigator)) return
    navigator.serviceWorker.register(SERVICE_WORKER).catch(() => undefined)
  }, [])
}

// Static text: a kept page allows it by one hash.
const REGISTER_AFTER_LOAD = `if ('serviceWorker' in navigator) addEventListener('load', function () {
  navigator.serviceWorker.register('${SERVICE_WORKER}').catch(function () {})
})`

/**
 * The same for a page without the site's scripts that most visitors land on (the home page), so
 * that the script-free pages they read next are kept too: a few lines, run after the page loaded.
 */
export function OfflineReadingScript() {
  const nonce = useNonce()
  if (import.meta.env.DEV) return null
  return <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: REGISTER_AFTER_LOAD }} />
}
