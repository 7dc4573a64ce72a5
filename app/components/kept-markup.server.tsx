import type { ReactElement } from 'react'
import { renderToString } from 'react-dom/server'
import {
  UNSAFE_DataRouterContext,
  UNSAFE_DataRouterStateContext,
  UNSAFE_FetchersContext,
  UNSAFE_FrameworkContext,
  UNSAFE_LocationContext,
  UNSAFE_NavigationContext,
  UNSAFE_RouteContext,
} from 'react-router'
import type { KeepMarkup, RouterContexts } from './kept-markup'

/** Enough for the frame of every page without scripts, each address apart; made-up addresses push out the oldest. */
const MAX_KEPT = 64
const kept = new Map<string, string>()

function renderWithin(element: ReactElement, contexts: RouterContexts): string {
  return renderToString(
    <UNSAFE_FrameworkContext value={contexts.framework}>
      <UNSAFE_DataRouterContext value={contexts.dataRouter}>
        <UNSAFE_DataRouterStateContext value={contexts.dataRouterState}>
          <UNSAFE_FetchersContext value={contexts.fetchers}>
            <UNSAFE_NavigationContext value={contexts.navigation}>
              <UNSAFE_LocationContext value={contexts.location}>
                <UNSAFE_RouteContext value={contexts.route}>{element}</UNSAFE_RouteContext>
              </UNSAFE_LocationContext>
            </UNSAFE_NavigationContext>
          </UNSAFE_FetchersContext>
        </UNSAFE_DataRouterStateContext>
      </UNSAFE_DataRouterContext>
    </UNSAFE_FrameworkContext>,
  )
}

/** The markup of `element` for `key`, rendered the first time and kept (the least recently asked for goes first). */
export const keepMarkup: KeepMarkup = (key, element, contexts) => {
  let markup = kept.get(key)
  if (markup === undefined) markup = renderWithin(element, contexts)
  else kept.delete(key)
  kept.set(key, markup)
  if (kept.size > MAX_KEPT) kept.delete(kept.keys().next().value!)
  return markup
}
