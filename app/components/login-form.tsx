import { getFormProps, useForm, type SubmissionResult } from '@conform-to/react'
import { useFetcher, Link } from 'react-router'
import { ErrorList, Field } from '~/components/forms'

interface LoginFormProps {
  /** The form's own id, which its fields' ids start with; numbered by React (useId) when not given. */
  id?: string
  /** Where to go after signing in (a same-site path; the server checks it again). */
  redirectTo?: string
  /** The /login action's answer when the page itself was posted (no JavaScript). */
  lastResult?: SubmissionResult<string[]>
}

/**
 * The sign-in form. It always posts to /login, so it works the same on the sign-in page and
 * inside a dialog elsewhere (e.g. the marketplace); with JavaScript, errors appear in place.
 */
export function LoginForm({ id, redirectTo, lastResult }: LoginFormProps) {
  const fetcher = useFetcher<{ result: SubmissionResult<string[]> }>()
  const [form, fields] = useForm({
    id,
    lastResult: fetcher.data?.result ?? lastResult,
    // Checked by the server only (and the fields' `required`): the marketplace shows this form,
    // and visitors' phones need not load the schema library for it.
  })
  const busy = fetcher.state !== 'idle'
  return (
    <fetcher.Form method="post" action="/login" className="form" {...getFormProps(form)}>
      <ErrorList id={form.errorId} errors={form.errors} variant="form" />
      {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
      <Field meta={fields.email} label="E-mail" type="email" autoComplete="username" required />
      <Field meta={fields.password} label="Password" type="password" autoComplete="current-password" required />
      <div className="button-row">
        <button type="submit" className="button" disabled={busy}>
          {busy ? 'Signing in...' : 'Sign in'}
        </button>
        <Link to="/forgot-password" className="forgot-password-link">
          Forgot your password?
        </Link>
      </div>
    </fetcher.Form>
  )
}
