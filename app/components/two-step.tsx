import { getFormProps, useForm, type SubmissionResult } from '@conform-to/react'
import { Form } from 'react-router'
import { ErrorList, Field } from '~/components/forms'
import { useIsSubmitting } from '~/components/use-is-submitting'

/** Setting up an authenticator app: the picture to scan, the key to type instead, and the first code. */
export function AuthenticatorSetup({
  qrSvg,
  secret,
  lastResult,
  intent,
}: {
  /** An SVG drawn by the server from the app's address (no outside service). */
  qrSvg: string
  secret: string
  lastResult?: SubmissionResult<string[]>
  /** Sent as `intent` when the page has other forms. */
  intent?: string
}) {
  const [form, fields] = useForm({ lastResult, shouldValidate: 'onSubmit' })
  const saving = useIsSubmitting(intent)
  return (
    <div className="two-step-setup">
      <ol className="two-step-steps">
        <li>Open an authenticator app on your phone (for example Google Authenticator, Microsoft Authenticator or 2FAS).</li>
        <li>Add an account in the app and scan this picture.</li>
        <li>Type the six-digit code the app then shows.</li>
      </ol>
      <div
        className="two-step-qr"
        role="img"
        aria-label="QR code for your authenticator app"
        dangerouslySetInnerHTML={{ __html: qrSvg }}
      />
      <p className="field-hint">
        Cannot scan it? Type this key into the app instead:{' '}
        <code className="two-step-secret">{secret.match(/.{1,4}/g)?.join(' ')}</code>
      </p>
      <Form method="post" className="form" {...getFormProps(form)}>
        <ErrorList id={form.errorId} errors={form.errors} variant="form" />
        {intent ? <input type="hidden" name="intent" value={intent} /> : null}
        <Field
          meta={fields.code}
          label="Code from the app"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9 ]*"
          required
        />
        <div className="button-row">
          <button type="submit" className="button" disabled={saving}>
            {saving ? 'Checking...' : 'Turn on two-step sign-in'}
          </button>
        </div>
      </Form>
    </div>
  )
}

/** The recovery codes, shown once after they are made. */
export function RecoveryCodes({ codes }: { codes: string[] }) {
  return (
    <section className="card two-step-codes" aria-labelledby="recovery-codes-heading">
      <h2 id="recovery-codes-heading">Your recovery codes</h2>
      <p>
        Each code lets you sign in once without the app, for example if you lose your phone. Write them down or print them and
        keep them somewhere safe. <strong>They are shown only now.</strong>
      </p>
      <ul className="two-step-code-list">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
    </section>
  )
}
