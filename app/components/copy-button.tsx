import { useEffect, useRef } from 'react'
import { useNonce } from './nonce'

/**
 * Makes one copy button work: shown only where the browser offers the clipboard (without it the
 * value stays plain, selectable text), it copies its box's `data-copy`, says so, and offers to
 * copy again after three seconds. Plain script without outside names: its own text is the inline
 * script of a page sent without the site's scripts, and React calls it for a page it renders.
 */
function wireCopyButton(box: HTMLElement & { wired?: boolean }) {
  const button = box.querySelector('button')
  const status = box.querySelector('[role="status"]')
  if (!button || !status || box.wired || !navigator.clipboard) return
  box.wired = true
  const label = button.textContent
  const name = button.getAttribute('aria-label')
  let timer: ReturnType<typeof setTimeout> | undefined
  const show = (message: string, copied: boolean) => {
    clearTimeout(timer)
    button.textContent = copied ? 'Copied' : label
    button.setAttribute('aria-label', copied ? message : (name ?? label ?? ''))
    status.textContent = message
    status.className = copied ? 'visually-hidden' : 'copy-status'
    timer = setTimeout(() => {
      button.textContent = label
      if (name) button.setAttribute('aria-label', name)
      else button.removeAttribute('aria-label')
      status.textContent = ''
    }, 3000)
  }
  button.addEventListener('click', () => {
    navigator.clipboard.writeText(box.dataset.copy ?? '').then(
      () => show(box.dataset.copied ?? '', true),
      () => show(box.dataset.failed ?? '', false),
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
  useEffect(() => {
    if (box.current) wireCopyButton(box.current)
  }, [])
  return (
    <>
      <span ref={box} className="copy-button" data-copy={value} data-copied={copied} data-failed={failed}>
        <button type="button" className="button-secondary button-small" aria-label={name} hidden suppressHydrationWarning>
          {label}
        </button>
        <span role="status" className="visually-hidden" suppressHydrationWarning />
      </span>
      <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: WIRE_PREVIOUS_BOX }} />
    </>
  )
}
