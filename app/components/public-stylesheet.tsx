import { createContext, useContext, useState, useSyncExternalStore } from 'react'
import publicStylesUrl from '~/styles/public.css?url'

// The stylesheet's text, given on the server only (entry.server.tsx) and only for answers that
// may be kept for every visitor; it never ships in the JavaScript.
const StylesheetText = createContext('')

export const StylesheetTextProvider = StylesheetText.Provider

const INLINE_ID = 'public-stylesheet'
const noSubscription = () => () => {}

/**
 * The public stylesheet (decision 021). A page for anonymous visitors carries it in a `<style>`,
 * so its first response is all a phone needs to paint; it is compressed once and kept. Other
 * answers (signed-in pages, form replies) are made and compressed per request, and link the
 * same sheet, which the browser keeps.
 *
 * In the browser the element stays what the server wrote (React leaves dangerouslySetInnerHTML
 * alone when it hydrates); a layout drawn afresh in the browser links the sheet.
 */
export function PublicStylesheet() {
  const css = useContext(StylesheetText)
  const hydrating = !useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  )
  const [inline] = useState(() =>
    typeof document === 'undefined' ? css !== '' : hydrating && document.getElementById(INLINE_ID) !== null,
  )
  if (!inline) return <link rel="stylesheet" href={publicStylesUrl} />
  return <style id={INLINE_ID} dangerouslySetInnerHTML={{ __html: css }} suppressHydrationWarning />
}
