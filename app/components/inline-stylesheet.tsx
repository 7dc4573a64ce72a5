import { createContext, useContext, useState, useSyncExternalStore } from 'react'
import publicStylesUrl from '~/styles/public.css?url'

// The stylesheet's text is given on the server only (entry.server.tsx), so it never ships in the JavaScript.
const StylesheetText = createContext('')

export const StylesheetTextProvider = StylesheetText.Provider

const noSubscription = () => () => {}

/**
 * The public stylesheet written into the page, so the first response is all a phone needs to
 * paint (decision 021). In the browser the element keeps what the server wrote: React leaves
 * dangerouslySetInnerHTML alone when it hydrates. Should the layout ever be drawn afresh in the
 * browser, it links the same sheet instead.
 */
export function InlineStylesheet() {
  const css = useContext(StylesheetText)
  const drawnInBrowser = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  )
  const [linked] = useState(drawnInBrowser)
  if (linked) return <link rel="stylesheet" href={publicStylesUrl} />
  return <style dangerouslySetInnerHTML={{ __html: css }} suppressHydrationWarning />
}
