import { useEffect, useState } from 'react'

/**
 * Copies a value (e.g. an account number) to the clipboard. Rendered only once JavaScript runs
 * and the browser offers the clipboard; without it the value stays plain, selectable text.
 */
/** `what` completes the button's accessible name, e.g. 'the General Donations account number'. */
export function CopyButton({ value, what }: { value: string; what: string }) {
  const [available, setAvailable] = useState(false)
  const [status, setStatus] = useState<'idle' | 'copied' | 'failed'>('idle')

  useEffect(() => setAvailable(typeof navigator !== 'undefined' && !!navigator.clipboard), [])
  useEffect(() => {
    if (status === 'idle') return
    const timer = setTimeout(() => setStatus('idle'), 3000)
    return () => clearTimeout(timer)
  }, [status])

  if (!available) return null
  return (
    <>
      <button
        type="button"
        className="button-secondary button-small"
        onClick={() =>
          navigator.clipboard.writeText(value).then(
            () => setStatus('copied'),
            () => setStatus('failed'),
          )
        }
      >
        {status === 'copied' ? 'Copied' : 'Copy'}
        <span className="visually-hidden"> {what}</span>
      </button>
      <span role="status" className={status === 'failed' ? 'copy-status' : 'visually-hidden'}>
        {status === 'copied' ? `Copied ${what}` : status === 'failed' ? 'Could not copy: please select the number instead' : ''}
      </span>
    </>
  )
}
