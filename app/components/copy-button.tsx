import { useEffect, useState } from 'react'

type CopyStatus = 'idle' | 'copied' | 'failed'

/**
 * Whether the browser offers the clipboard (known only once JavaScript runs, so a copy button
 * renders nothing on the server) and a `copy` that reports whether it worked in `status`.
 */
export function useClipboard() {
  const [available, setAvailable] = useState(false)
  const [status, setStatus] = useState<CopyStatus>('idle')
  useEffect(() => setAvailable(typeof navigator !== 'undefined' && !!navigator.clipboard), [])
  const copy = (value: string) =>
    navigator.clipboard.writeText(value).then(
      () => setStatus('copied'),
      () => setStatus('failed'),
    )
  return { available, status, setStatus, copy }
}

/**
 * Copies a value (e.g. an account number) to the clipboard. Rendered only once JavaScript runs
 * and the browser offers the clipboard; without it the value stays plain, selectable text.
 */
/** `what` completes the button's accessible name, e.g. 'the General Donations account number'. */
export function CopyButton({ value, what }: { value: string; what: string }) {
  const { available, status, setStatus, copy } = useClipboard()

  // The button says 'Copied' for a moment, then offers to copy again.
  useEffect(() => {
    if (status === 'idle') return
    const timer = setTimeout(() => setStatus('idle'), 3000)
    return () => clearTimeout(timer)
  }, [status, setStatus])

  if (!available) return null
  return (
    <>
      <button type="button" className="button-secondary button-small" onClick={() => copy(value)}>
        {status === 'copied' ? 'Copied' : 'Copy'}
        <span className="visually-hidden"> {what}</span>
      </button>
      <span role="status" className={status === 'failed' ? 'copy-status' : 'visually-hidden'}>
        {status === 'copied' ? `Copied ${what}` : status === 'failed' ? 'Could not copy: please select the number instead' : ''}
      </span>
    </>
  )
}
