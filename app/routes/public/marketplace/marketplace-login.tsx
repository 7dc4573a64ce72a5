import { useId, useRef } from 'react'
import { LoginForm } from '~/components/login-form'

/**
 * The marketplace's 'Admin Login': a sign-in dialog titled 'Marketplace Admin' that comes back
 * to the marketplace, where managers then see their buttons. The dialog opens through HTML
 * invoker commands, so it works before (or without) JavaScript in current browsers; the click
 * handlers cover browsers without them.
 */
export function MarketplaceLogin() {
  const id = useId()
  const dialogRef = useRef<HTMLDialogElement>(null)
  return (
    <>
      <button
        type="button"
        className="button-secondary button-small"
        commandfor={`${id}-dialog`}
        command="show-modal"
        onClick={() => {
          if (!dialogRef.current?.open) dialogRef.current?.showModal()
        }}
      >
        Admin Login
      </button>
      <dialog ref={dialogRef} id={`${id}-dialog`} className="route-dialog marketplace-login" aria-labelledby={`${id}-title`}>
        <div className="route-dialog-body">
          <button
            type="button"
            className="route-dialog-close"
            commandfor={`${id}-dialog`}
            command="close"
            onClick={() => dialogRef.current?.close()}
          >
            <span aria-hidden="true">×</span>
            <span className="visually-hidden">Close</span>
          </button>
          <h2 id={`${id}-title`}>Marketplace Admin</h2>
          <p>Sign in to add, edit and delete products.</p>
          <LoginForm redirectTo="/marketplace" />
        </div>
      </dialog>
    </>
  )
}
