import { useId, useRef } from 'react'
import { Form } from 'react-router'

// Invoker commands (HTML, not yet in React's types): a button that opens or closes a dialog without script.
declare module 'react' {
  interface ButtonHTMLAttributes<T> {
    commandfor?: string
    command?: 'show-modal' | 'close' | 'request-close'
  }
}

/** One of several ways to confirm, sent as the submit button's name and value (e.g. scope=occurrence). */
export interface ConfirmChoice {
  name: string
  value: string
  label: string
}

interface ConfirmButtonBaseProps {
  /** Where the form posts; the current route's action when omitted. */
  action?: string
  /** Sent with the confirmation, e.g. `{ intent: 'delete', id }`. */
  hiddenFields: Record<string, string>
  /** The button that asks, e.g. 'Delete'. */
  label: string
  /** The question, e.g. 'Are you sure you want to delete this article?'. */
  confirmText: string
  /** Class of the first button; 'button-danger' by default. */
  className?: string
  /** The first button's tooltip, e.g. the old site's 'Delete product'. */
  title?: string
}

type ConfirmButtonProps = ConfirmButtonBaseProps &
  (
    | {
        /** The button that does it, e.g. 'Delete'. */
        confirmLabel: string
        choices?: never
      }
    | {
        /** Several buttons that do it in different ways ('This date only', 'The whole series'). */
        choices: readonly ConfirmChoice[]
        confirmLabel?: never
      }
  )

/**
 * A button that asks for confirmation in a modal <dialog> before it POSTs a small form.
 *
 * The dialog opens through HTML invoker commands (`commandfor` / `command="show-modal"`), so it
 * works with JavaScript switched off in current browsers; where a browser lacks them, the
 * click handler opens it once the page's script runs. Escape and Cancel close it.
 */
export function ConfirmButton({
  action,
  hiddenFields,
  label,
  confirmText,
  confirmLabel,
  choices,
  className = 'button-danger',
  title,
}: ConfirmButtonProps) {
  const dialogId = useId()
  const textId = `${dialogId}-text`
  const dialogRef = useRef<HTMLDialogElement>(null)

  function openWithoutInvokerSupport() {
    if (!('commandForElement' in HTMLButtonElement.prototype)) dialogRef.current?.showModal()
  }

  return (
    <>
      <button
        type="button"
        className={className}
        title={title}
        commandfor={dialogId}
        command="show-modal"
        onClick={openWithoutInvokerSupport}
      >
        {label}
      </button>
      <dialog ref={dialogRef} id={dialogId} className="confirm-dialog" aria-labelledby={textId}>
        <p id={textId}>{confirmText}</p>
        <Form method="post" action={action} onSubmit={() => dialogRef.current?.close()}>
          {Object.entries(hiddenFields).map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          <div className="button-row">
            <button
              type="button"
              className="button-secondary"
              commandfor={dialogId}
              command="close"
              onClick={() => dialogRef.current?.close()}
            >
              Cancel
            </button>
            {choices ? (
              choices.map((choice) => (
                <button key={choice.value} type="submit" className="button-danger" name={choice.name} value={choice.value}>
                  {choice.label}
                </button>
              ))
            ) : (
              <button type="submit" className="button-danger">
                {confirmLabel}
              </button>
            )}
          </div>
        </Form>
      </dialog>
    </>
  )
}
