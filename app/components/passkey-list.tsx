import { ConfirmButton } from './confirm-button'

export interface ListedPasskey {
  id: string
  name: string
  added: string
  lastUsed: string | null
}

/** A person's passkeys, each with a Remove button that asks first (`signsIn`: "you", or the person's name). */
export function PasskeyList({ passkeys, signsIn }: { passkeys: ListedPasskey[]; signsIn: string }) {
  return (
    <ul className="passkey-list">
      {passkeys.map((passkey) => (
        <li key={passkey.id}>
          <div>
            <strong>{passkey.name}</strong>
            <span className="field-hint">
              Added {passkey.added}
              {passkey.lastUsed ? ` · last used ${passkey.lastUsed}` : ' · not used yet'}
            </span>
          </div>
          <ConfirmButton
            hiddenFields={{ intent: 'remove-passkey', passkeyId: passkey.id }}
            label="Remove"
            confirmText={`Remove the passkey “${passkey.name}”? It will no longer sign ${signsIn} in.`}
            confirmLabel="Remove"
          />
        </li>
      ))}
    </ul>
  )
}
