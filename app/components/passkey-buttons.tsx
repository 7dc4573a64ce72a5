import type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser'
import { useEffect, useId, useState } from 'react'

// The library is loaded when it is needed: the server never draws these buttons, and a page that has
// them sends the library only to a browser that runs JavaScript.
const webAuthn = () => import('@simplewebauthn/browser')

/** Whether this browser can use passkeys: known only once JavaScript runs, so nothing is drawn on the server. */
function usePasskeysAvailable(): boolean {
  const [available, setAvailable] = useState(false)
  useEffect(() => {
    let current = true
    // A library that cannot be loaded leaves the password form alone.
    webAuthn()
      .then(({ browserSupportsWebAuthn }) => current && setAvailable(browserSupportsWebAuthn()))
      .catch(() => {})
    return () => {
      current = false
    }
  }, [])
  return available
}

async function postForm(url: string, fields: Record<string, string>): Promise<Record<string, unknown>> {
  const response = await fetch(url, { method: 'POST', body: new URLSearchParams(fields) })
  const answer = await response.json().catch(() => ({ error: 'The server could not be reached. Please try again.' }))
  if (!response.ok && !answer.error) answer.error = 'Something went wrong. Please try again.'
  return answer
}

// The browser throws NotAllowedError when the person closes its passkey dialog: nothing to report then.
const cancelled = (error: unknown) => error instanceof Error && error.name === 'NotAllowedError'

/** "Sign in with a passkey" on /login; without JavaScript (or passkey support) only the password form shows. */
export function PasskeySignInButton({ redirectTo }: { redirectTo?: string }) {
  const available = usePasskeysAvailable()
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState('')
  if (!available) return null
  async function signIn() {
    setBusy(true)
    setError('')
    try {
      const { options, error: refused } = await postForm('/login/passkey', { intent: 'options' })
      if (refused) throw new Error(String(refused))
      const { startAuthentication } = await webAuthn()
      const response = await startAuthentication({
        optionsJSON: options as PublicKeyCredentialRequestOptionsJSON,
      })
      const answer = await postForm('/login/passkey', {
        intent: 'verify',
        response: JSON.stringify(response),
        redirectTo: redirectTo ?? '',
      })
      if (answer.error) throw new Error(String(answer.error))
      window.location.assign(String(answer.redirectTo))
    } catch (caught) {
      if (!cancelled(caught)) setError(caught instanceof Error ? caught.message : 'The passkey could not be used.')
      setBusy(false)
    }
  }
  return (
    <div className="passkey-sign-in">
      <p className="passkey-or">or</p>
      <div role="alert" className="form-errors">
        {error ? <p className="field-errors">{error}</p> : null}
      </div>
      <button type="button" className="button-secondary" onClick={signIn} disabled={busy}>
        {busy ? 'Waiting for your passkey...' : 'Sign in with a passkey'}
      </button>
    </div>
  )
}

/** Adds a passkey of this device (or a security key) to the signed-in account, under a name the person chooses. */
export function AddPasskeyForm({ onAdded }: { onAdded: () => void }) {
  const available = usePasskeysAvailable()
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState('')
  const nameId = useId()
  if (!available) return <p className="field-hint">This browser cannot use passkeys, or JavaScript is off.</p>
  async function add(form: HTMLFormElement) {
    const name = String(new FormData(form).get('name') ?? '').trim()
    setBusy(true)
    setError('')
    try {
      if (!name) throw new Error('Give the passkey a name, e.g. the device it is on')
      const { options, error: refused } = await postForm('/admin/account/passkeys', { intent: 'options' })
      if (refused) throw new Error(String(refused))
      const { startRegistration } = await webAuthn()
      const response = await startRegistration({ optionsJSON: options as PublicKeyCredentialCreationOptionsJSON })
      const answer = await postForm('/admin/account/passkeys', { intent: 'add', name, response: JSON.stringify(response) })
      if (answer.error) throw new Error(String(answer.error))
      form.reset()
      onAdded()
    } catch (caught) {
      if (!cancelled(caught)) setError(caught instanceof Error ? caught.message : 'The passkey could not be added.')
    }
    setBusy(false)
  }
  return (
    <form
      className="form"
      onSubmit={(event) => {
        event.preventDefault()
        void add(event.currentTarget)
      }}
    >
      <div role="alert" className="form-errors">
        {error ? <p className="field-errors">{error}</p> : null}
      </div>
      <div className="field">
        <label htmlFor={nameId}>Name for the new passkey</label>
        <p className="field-hint" id={`${nameId}-hint`}>
          The device it is on, e.g. “Work laptop” or “My phone”.
        </p>
        <input id={nameId} name="name" className="field-input" maxLength={60} aria-describedby={`${nameId}-hint`} required />
      </div>
      <div className="button-row">
        <button type="submit" className="button" disabled={busy}>
          {busy ? 'Waiting for your device...' : 'Add a passkey'}
        </button>
      </div>
    </form>
  )
}
