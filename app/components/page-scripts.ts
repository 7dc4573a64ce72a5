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
  const deepestHandle = matches.at(-1)?.handle as Partial<typeof WITHOUT_SCRIPTS> | undefined
  return user !== null || toast !== null || deepestHandle?.withoutScripts !== true
}
