import { useLayoutEffect, useRef } from 'react'
import { useNonce } from './nonce'

/**
 * Makes one copy button work: shown only where the browser offers the clipboard (without it the
 * value stays plain, selectable text), it copies its box's `data-copy` and says so for three
 * seconds; a refusal says, in view until the next try, what to do instead. Plain script without
 * outside names: its own text is the inline script of a page sent without the site's scripts, and
 * React calls it for a page it renders. The words are read from the box at each click, as React
 * may have changed them since.
 */
function wireCopyButton(box: HTMLElement & { wired?: boolean }) {
  const button = box.querySelector('button')
  const status = box.querySelector('[role="status"]')
  if (!button || !status || box.wired || !navigator.clipboard) return
  box.wired = true
  let timer: ReturnType<typeof setTimeout> | undefined
  // The button as React drew it: its words and name.
  const asDrawn = () => {
    button.textContent = box.dataset.label ?? ''
    if (box.dataset.name) button.setAttribute('aria-label', box.dataset.name)
    else button.removeAttribute('aria-label')
  }
  const show = (copied: boolean) => {
    clearTimeout(timer)
    status.textContent = (copied ? box.dataset.copied : box.dataset.failed) ?? ''
    status.className = copied ? 'visually-hidden' : 'copy-status'
    if (!copied) return asDrawn()
    button.textContent = 'Copied'
    button.setAttribute('aria-label', status.textContent)
    timer = setTimeout(() => {
      asDrawn()
      status.textContent = ''
    }, 3000)
  }
  button.addEventListener('click', () => {
    navigator.clipboard.writeText(box.dataset.copy ?? '').then(
      () => show(true),
      () => show(false),
    )
  })
  button.hidden = false
}

// Static text: a kept page allows it by one hash, however many buttons it has.
const WIRE_PREVIOUS_BOX = `(${wireCopyButton.toString()})(document.currentScript.previousElementSibling)`

interface CopyButtonProps {
  value: string
  /** The button's words, e.g. 'Copy' or 'Copy link'. */
  label?: string
  /** Its accessible name when the words alone do not say what it copies. */
  name?: string
  /** Said once copied, e.g. 'Copied the General Donations account number'. */
  copied: string
  /** Said, in view, when the browser refuses, with what to do instead. */
  failed: string
}

/**
 * Copies a value (an account number, a link) to the clipboard, with or without the site's scripts:
 * a few lines after the button make it work on a page sent without them (decision 032).
 */
export function CopyButton({ value, label = 'Copy', name, copied, failed }: CopyButtonProps) {
  const nonce = useNonce()
  const box = useRef<HTMLSpanElement>(null)
  // Before the browser paints, so that the button does not appear a moment after the row.
  useLayoutEffect(() => {
    if (box.current) wireCopyButton(box.current)
  }, [])
  return (
    <>
      <span
        ref={box}
        className="copy-button"
        data-copy={value}
        data-label={label}
        data-name={name}
        data-copied={copied}
        data-failed={failed}
      >
        <button type="button" className="button-secondary button-small" aria-label={name} hidden suppressHydrationWarning>
          {label}
        </button>
        {/* Text, even empty: React then lets the few lines' message stand when it takes the page over. */}
        <span role="status" className="visually-hidden" suppressHydrationWarning>
          {''}
        </span>
      </span>
      <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: WIRE_PREVIOUS_BOX }} />
    </>
  )
}
