import { useEffect } from 'react'

/**
 * Starts the service worker that keeps the public pages a visitor reads for reading offline
 * (public/sw.js). It runs once the page's scripts have started, so it never delays the page.
 */
export function useOfflineReading() {
  useEffect(() => {
    if (import.meta.env.DEV || !('serviceWorker' in navigator)) return
    navigator.serviceWorker.register('/sw.js').catch(() => undefined)
  }, [])
}
