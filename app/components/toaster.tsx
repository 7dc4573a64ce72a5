import { useEffect, useState } from 'react'

export interface ToastMessage {
  type: 'success' | 'error' | 'info'
  message: string
  /** An item just moved to the trash: the toast offers to take it back. */
  undo?: { kind: string; id: string; returnTo: string }
}

/** How long a toast stays, as on the old site (the library's default is 5000 ms). */
export const TOAST_DURATION_MS = 3000
/** A toast with Undo stays long enough to reach the button. */
const UNDO_TOAST_DURATION_MS = 15_000

/** A plain form, so Undo works without JavaScript too: restores the item from the trash and comes back. */
function UndoForm({ undo }: { undo: NonNullable<ToastMessage['undo']> }) {
  return (
    <form method="post" action="/admin/trash" className="toast-undo">
      <input type="hidden" name="intent" value="restore" />
      <input type="hidden" name="kind" value={undo.kind} />
      <input type="hidden" name="id" value={undo.id} />
      <input type="hidden" name="returnTo" value={undo.returnTo} />
      <button type="submit" className="button-secondary button-small">
        Undo
      </button>
    </form>
  )
}

type Sonner = typeof import('sonner')

/**
 * Shows the toast that the server handed over after a redirect (see `redirectWithToast`):
 * top-right, closing after 3 s. The toast library is only downloaded when there is a toast to
 * show, so ordinary page views do not pay for it. Without JavaScript the same text is shown
 * in a plain status box.
 */
export function Toaster({ toast }: { toast: ToastMessage | null }) {
  const [sonner, setSonner] = useState<Sonner | null>(null)

  useEffect(() => {
    if (!toast || sonner) return
    // A failed download (offline) only costs the toast; the page itself is complete.
    import('sonner').then(setSonner, () => undefined)
  }, [toast, sonner])

  useEffect(() => {
    if (!toast || !sonner) return
    if (toast.undo) {
      sonner.toast[toast.type](toast.message, { description: <UndoForm undo={toast.undo} />, duration: UNDO_TOAST_DURATION_MS })
    } else {
      sonner.toast[toast.type](toast.message)
    }
  }, [toast, sonner])

  return (
    <>
      {sonner ? (
        <sonner.Toaster
          position="top-right"
          duration={TOAST_DURATION_MS}
          closeButton
          // Below the admin bar or header (site.css sets these), never over its Sign out.
          offset={{ top: 'var(--toast-top)' }}
          mobileOffset={{ top: 'var(--toast-top)' }}
        />
      ) : null}
      {toast ? (
        <noscript>
          <div className="toast-fallback" role="status">
            {toast.message}
            {toast.undo ? <UndoForm undo={toast.undo} /> : null}
          </div>
        </noscript>
      ) : null}
    </>
  )
}
