import { useEffect, useState } from 'react'

/**
 * False in the server's markup and in the browser's first render, true once React runs the page:
 * controls that only work with scripts appear (or are enabled) then, never as dead buttons.
 */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false)
  useEffect(() => setHydrated(true), [])
  return hydrated
}
