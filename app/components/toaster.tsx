import { useEffect, useState } from 'react'

export interface ToastMessage {
  type: 'success' | 'error' | 'info'
  message: string
}

/** How long a toast stays, as on the old site (the library's default is 5000 ms). */
export const TOAST_DURATION_MS = 3000

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
    if (toast && sonner) sonner.toast[toast.type](toast.message)
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
          </div>
        </noscript>
      ) : null}
    </>
  )
}
