import { getFormProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { useEffect } from 'react'
import { data, Form } from 'react-router'
import type { Route } from './+types/setup'
import { ErrorList, Field, NewPasswordFields, RadioChoiceField } from '~/components/forms'
import { useIsSubmitting } from '~/components/use-is-submitting'
import { recordAuditEvent } from '~/modules/audit/audit.service.server'
import { SETUP_MESSAGES, SetupSchema, SITE_START_LABELS, SITE_STARTS } from '~/modules/setup/setup.schema'
import { canSetUpWith, completeSetup, SetupRefusedError } from '~/modules/setup/setup.server'
import { timeZoneChoices } from '~/modules/setup/time-zones'
import { UserRuleError } from '~/modules/users/users.service.server'
import { parseFormSubmission } from '~/platform/form-submission.server'
import { requestInfoContext } from '~/platform/request-context'
import { createSession, deviceOf, sessionCookie } from '~/platform/session.server'
import { redirectWithToast } from '~/platform/toast.server'
import { CACHE_PROFILES } from '~/platform/http-caching'

export const meta: Route.MetaFunction = () => [{ title: 'Set up your website' }, { name: 'robots', content: 'noindex' }]

// The address holds a secret: no cache keeps the page.
const PRIVATE_HEADERS = { 'Cache-Control': CACHE_PROFILES.personal }
export const headers: Route.HeadersFunction = () => PRIVATE_HEADERS

const SENSITIVE = ['newPassword', 'confirmPassword']
const START_OPTIONS = SITE_STARTS.map((value) => ({ value, ...SITE_START_LABELS[value] }))

export async function loader({ params }: Route.LoaderArgs) {
  const usable = await canSetUpWith(params.token)
  return data({ usable, timeZones: usable ? timeZoneChoices() : [] }, { status: usable ? 200 : 410, headers: PRIVATE_HEADERS })
}

export async function action({ request, params, context }: Route.ActionArgs) {
  if (!(await canSetUpWith(params.token))) {
    return data({ result: null, refused: SETUP_MESSAGES.unusable }, { status: 410, headers: PRIVATE_HEADERS })
  }
  const submission = await parseFormSubmission(request, SetupSchema, { hideFields: SENSITIVE })
  if (submission.status !== 'success') return data({ result: submission.reply(), refused: null }, { status: 400 })
  const { clientIp, secure } = context.get(requestInfoContext)
  let user
  try {
    user = await completeSetup(params.token, submission.value)
  } catch (error) {
    if (error instanceof SetupRefusedError) return data({ result: null, refused: error.message }, { status: 410 })
    if (error instanceof UserRuleError)
      return data({ result: submission.reply({ formErrors: [error.message] }), refused: null }, { status: 400 })
    throw error
  }
  await recordAuditEvent({
    by: { actor: user, clientAddress: clientIp },
    action: 'site.set-up',
    target: { type: 'user', id: user.id, label: `${user.name} <${user.email}>` },
    detail: { start: submission.value.start, timeZone: submission.value.timeZone },
  })
  const session = await createSession(user.id, deviceOf(request, clientIp))
  return redirectWithToast('/admin', SETUP_MESSAGES.done(submission.value.organisationName), 'success', {
    headers: { 'Set-Cookie': sessionCookie(session, secure) },
  })
}

/** Fills the time zone with the browser's own when the field is still empty (a guess the owner can change). */
function useBrowserTimeZone(inputId: string) {
  useEffect(() => {
    const input = document.getElementById(inputId)
    if (input instanceof HTMLInputElement && !input.value) input.value = Intl.DateTimeFormat().resolvedOptions().timeZone
  }, [inputId])
}

export default function Setup({ loaderData, actionData }: Route.ComponentProps) {
  const [form, fields] = useForm({
    lastResult: actionData?.result,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: SetupSchema }),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  })
  const saving = useIsSubmitting()
  useBrowserTimeZone(fields.timeZone.id)
  const refused = actionData?.refused ?? (loaderData.usable ? null : SETUP_MESSAGES.unusable)
  if (refused) {
    return (
      <main className="container section auth-page">
        <h1>Set up your website</h1>
        <p role="alert">{refused}</p>
        <p className="auth-page-links">
          <a href="/login">Sign in</a>
        </p>
      </main>
    )
  }
  return (
    <main className="container section auth-page">
      <h1>Set up your website</h1>
      <p className="muted">Name your organisation and create your own administrator account. Everything can be changed later.</p>
      <Form method="post" className="form" {...getFormProps(form)}>
        <ErrorList id={form.errorId} errors={form.errors} variant="form" />
        <Field meta={fields.organisationName} label="Organisation name" autoComplete="organization" required />
        <Field meta={fields.name} label="Your name" autoComplete="name" required />
        <Field
          meta={fields.email}
          label="Your e-mail"
          type="email"
          autoComplete="email"
          hint="You sign in with it, and a forgotten password is sent to it."
          required
        />
        <NewPasswordFields
          newPassword={fields.newPassword}
          confirmPassword={fields.confirmPassword}
          labels={{ newPassword: 'Choose a password', confirmPassword: 'Repeat the password' }}
        />
        <Field
          meta={fields.timeZone}
          label="Time zone"
          hint="Type a city to find it, e.g. America/Jamaica. Every date and time of the site is shown in it."
          list="time-zones"
          autoComplete="off"
          required
        />
        <datalist id="time-zones">
          {loaderData.timeZones.map((zone) => (
            <option key={zone.value} value={zone.value} label={zone.label} />
          ))}
        </datalist>
        <RadioChoiceField meta={fields.start} label="How the site starts" options={START_OPTIONS} />
        <div className="button-row">
          <button type="submit" className="button" disabled={saving}>
            {saving ? 'Setting up...' : 'Set up the website'}
          </button>
        </div>
      </Form>
    </main>
  )
}
