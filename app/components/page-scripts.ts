import { useMatches } from 'react-router'
import { useRootData } from './root-data'

/**
 * A route's `handle` mark: its visitor needs no script for what they do there (read a page, follow
 * a link), so the page is sent without any JavaScript (docs/performance.md lists these pages).
 */
export const WITHOUT_SCRIPTS = { withoutScripts: true } as const

/**
 * Whether this page ships its scripts. The deepest route decides (an article's own page under the
 * news list); a signed-in user always gets them (the admin bar), and so does a page with a toast
 * (its fallback is for browsers without JavaScript). In the browser the page is already running
 * its scripts; development always has them (Vite's hot reloading).
 */
export function useShipsScripts(): boolean {
  const matches = useMatches()
  const { user, toast } = useRootData()
  if (import.meta.env.DEV || typeof document !== 'undefined') return true
  return shipsScripts(matches.at(-1)?.handle, user !== null || toast !== null)
}

/** The same in production, from the deepest route's handle and whether the root's data has a user or a toast (entry.server.tsx asks before rendering). */
export function shipsScripts(deepestHandle: unknown, personal: boolean): boolean {
  return personal || (deepestHandle as Partial<typeof WITHOUT_SCRIPTS> | undefined)?.withoutScripts !== true
}
