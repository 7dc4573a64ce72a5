import { renderToString } from 'react-dom/server'
import { WithRouterContexts, type KeepMarkup } from './kept-markup'

/**
 * Header and footer of about 60 addresses (the site's pages and the items most read), the forms as
 * first seen and the items' own parts, each once more for visitors who save data: a few MB at
 * most. Made-up addresses push out the least recently asked for.
 */
const MAX_KEPT = 256
const kept = new Map<string, string>()

/** The markup of `element` for `key`, rendered the first time and kept (the least recently asked for goes first). */
export const keepMarkup: KeepMarkup = (key, element, contexts) => {
  let markup = kept.get(key)
  if (markup === undefined) markup = renderToString(<WithRouterContexts contexts={contexts}>{element}</WithRouterContexts>)
  else kept.delete(key)
  kept.set(key, markup)
  if (kept.size > MAX_KEPT) kept.delete(kept.keys().next().value!)
  return markup
}
