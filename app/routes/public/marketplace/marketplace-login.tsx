import { useRef } from 'react'
import { LoginForm } from '~/components/login-form'

const DIALOG_ID = 'marketplace-login'

/**
 * The marketplace's 'Admin Login': a sign-in dialog titled 'Marketplace Admin' that comes back
 * to the marketplace, where managers then see their buttons. The dialog opens through HTML
 * invoker commands, so it works before (or without) JavaScript in current browsers; the click
 * handlers cover browsers without them.
 */
export function MarketplaceLogin() {
  const dialogRef = useRef<HTMLDialogElement>(null)
  return (
    <>
      <button
        type="button"
        className="button-secondary button-small"
        commandfor={DIALOG_ID}
        command="show-modal"
        onClick={() => {
          if (!dialogRef.current?.open) dialogRef.current?.showModal()
        }}
      >
        Admin Login
      </button>
      <dialog ref={dialogRef} id={DIALOG_ID} className="route-dialog marketplace-login" aria-labelledby={`${DIALOG_ID}-title`}>
        <div className="route-dialog-body">
          <LoginDialogBody />
        </div>
      </dialog>
    </>
  )
}

function LoginDialogBody() {
  return (
    <>
      <button
        type="button"
        className="route-dialog-close"
        commandfor={DIALOG_ID}
        command="close"
        onClick={(event) => event.currentTarget.closest('dialog')?.close()}
      >
        <span aria-hidden="true">×</span>
        <span className="visually-hidden">Close</span>
      </button>
      <h2 id={`${DIALOG_ID}-title`}>Marketplace Admin</h2>
      <p>Sign in to add, edit and delete products.</p>
      <LoginForm id={`${DIALOG_ID}-form`} redirectTo="/marketplace" />
    </>
  )
}
