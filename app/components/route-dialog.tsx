import { useEffect, useRef } from 'react'
import { useLocation, useNavigate } from 'react-router'

/** The history state of a link that opens a child route over its list, so closing it can go back. */
export interface OpenedOverList {
  fromList: true
}

export const OPENED_OVER_LIST: OpenedOverList = { fromList: true }

/**
 * A child route (an article, an event) shown in a modal <dialog> over its list, with its own
 * URL in the address bar. Closing it (button, Escape, a click on the backdrop) goes back when
 * it was opened from the list, and to `closeTo` otherwise; focus returns to what opened it.
 */
export function RouteDialog({
  labelledBy,
  closeTo,
  closeLabel,
  children,
}: {
  /** The id of the heading that names the dialog. */
  labelledBy: string
  closeTo: string
  closeLabel: string
  children: React.ReactNode
}) {
  const dialogRef = useRef<HTMLDialogElement>(null)
  const navigate = useNavigate()
  const location = useLocation()

  useEffect(() => {
    const dialog = dialogRef.current
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null
    dialog?.showModal()
    return () => {
      // The dialog leaves with the route; focus goes back to the link that opened it.
      if (opener?.isConnected) opener.focus()
    }
  }, [])

  function close() {
    if ((location.state as OpenedOverList | null)?.fromList) navigate(-1)
    else navigate(closeTo, { preventScrollReset: true })
  }

  return (
    <dialog
      ref={dialogRef}
      className="route-dialog"
      aria-labelledby={labelledBy}
      onCancel={(event) => {
        // React passes a cancel up from a dialog inside (a delete question); that one closes alone.
        if (event.target !== event.currentTarget) return
        event.preventDefault()
        close()
      }}
      onClick={(event) => {
        // Only a click on the backdrop lands on the dialog itself; its content sits in the body.
        if (event.target === event.currentTarget) close()
      }}
    >
      <div className="route-dialog-body">
        <button type="button" className="route-dialog-close" onClick={close}>
          <span aria-hidden="true">×</span>
          <span className="visually-hidden">{closeLabel}</span>
        </button>
        {children}
      </div>
    </dialog>
  )
}
