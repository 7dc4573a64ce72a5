import type { FormMetadata } from '@conform-to/react'
import { useEffect, useId, useLayoutEffect, useRef, useState, type MouseEvent } from 'react'

/*
 * The errors of a long form, listed at its top once it has been sent (the GOV.UK error summary):
 * a heading 'There is a problem' and one link per field error that leads to the field. It takes
 * the focus whenever a submission fails, in the browser or on the server, so a keyboard or
 * screen-reader user hears what to fix; without JavaScript it is focused as the page loads.
 * Errors about the whole form stay in the form's own <ErrorList>.
 *
 *   <ErrorSummary form={form} listItemNames={{ bankAccounts: 'Bank account' }} />
 *   <ErrorSummary form={form} contextOf={(name) => legendOf[name]} />   ('Closing: Heading is required')
 */

/** `bankAccounts[1].label` -> ['bankAccounts', 1]; null for a field outside a list. */
function listPosition(name: string): [string, number] | null {
  const match = /^([^[.]+)\[(\d+)\]/.exec(name)
  return match ? [match[1], Number(match[2])] : null
}

export interface SummaryContext {
  /** For forms with rows: the name of one row of each list ('Bank account'), to say which row an error is in. */
  listItemNames?: Record<string, string>
  /** Where a field is, when its message alone is ambiguous (several 'Heading' fields): 'Closing'. */
  contextOf?: (name: string) => string | undefined
}

export interface SummaryError {
  name: string
  /** The fragment the link leads to: the field, or the error list of a list of rows. */
  href: string
  message: string
}

/** The field errors of a form, each with the address of its field; form-level errors are left out. */
export function summaryErrors(
  formId: string,
  errors: Record<string, string[] | undefined>,
  { listItemNames = {}, contextOf }: SummaryContext = {},
): SummaryError[] {
  return Object.entries(errors).flatMap(([name, messages]) => {
    if (name === '' || !messages?.length) return []
    const id = `${formId}-${name}`
    // A list's own error (too many rows) has no field: lead to its message above the rows.
    const href = name in listItemNames ? `#${id}-error` : `#${id}`
    const position = listPosition(name)
    const context =
      contextOf?.(name) ?? (position && listItemNames[position[0]] ? `${listItemNames[position[0]]} ${position[1] + 1}` : null)
    const prefix = context ? `${context}: ` : ''
    return messages.filter(Boolean).map((message) => ({ name, href, message: `${prefix}${message}` }))
  })
}

/**
 * The errors in the order of the fields on the page, given the names of the form's controls in
 * document order; a list's own error goes where its first row is. Unknown names keep their place at the end.
 */
export function inFieldOrder(errors: SummaryError[], controlNames: readonly string[]): SummaryError[] {
  if (controlNames.length === 0) return errors
  const position = (name: string) => {
    const index = controlNames.findIndex(
      (control) => control === name || control.startsWith(`${name}[`) || control.startsWith(`${name}.`),
    )
    return index === -1 ? Number.POSITIVE_INFINITY : index
  }
  return errors
    .map((error, index) => ({ error, index, position: position(error.name) }))
    .sort((a, b) => a.position - b.position || a.index - b.index)
    .map(({ error }) => error)
}

export function ErrorSummary({ form, ...context }: { form: FormMetadata<any, string[]> } & SummaryContext) {
  const headingId = useId()
  const ref = useRef<HTMLDivElement>(null)
  // The server lists errors in the schema's order; once in the browser, they follow the fields on the page.
  const [controlNames, setControlNames] = useState<string[]>([])
  const errors = inFieldOrder(summaryErrors(form.id, form.allErrors, context), controlNames)
  const errorNames = errors.map((error) => error.name).join('\n')
  const failed = form.status === 'error'
  // Shown from a failed submission until every error is fixed, not for a field merely left.
  const [sent, setSent] = useState(failed)
  const shown = (sent || failed) && errors.length > 0

  useEffect(() => {
    if (failed) setSent(true)
    else if (errors.length === 0) setSent(false)
  }, [failed, errors.length])

  useLayoutEffect(() => {
    const formElement = document.getElementById(form.id)
    if (!(formElement instanceof HTMLFormElement)) return
    const names = [...formElement.elements].flatMap((element) =>
      'name' in element && element.name ? [String(element.name)] : [],
    )
    setControlNames((previous) => (previous.join('\n') === names.join('\n') ? previous : names))
  }, [form.id, errorNames])

  // Each later failed submission, while the summary is already on the page, brings the focus back.
  useEffect(() => {
    const formElement = document.getElementById(form.id)
    if (!formElement) return
    const onSubmit = () => setTimeout(() => ref.current?.focus(), 0)
    formElement.addEventListener('submit', onSubmit)
    return () => formElement.removeEventListener('submit', onSubmit)
  }, [form.id])

  if (!shown) return null

  function goToField(event: MouseEvent<HTMLAnchorElement>, href: string) {
    const target = document.getElementById(decodeURIComponent(href.slice(1)))
    if (!(target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement)) {
      return
    }
    event.preventDefault()
    // Its label above it comes into view too.
    const label = target.labels?.[0]
    ;(label ?? target).scrollIntoView({ block: 'start' })
    target.focus({ preventScroll: true })
  }

  return (
    // autoFocus: focused when it appears (and on a page load without JavaScript).
    <div ref={ref} className="error-summary" tabIndex={-1} autoFocus>
      <div role="alert" aria-labelledby={headingId}>
        <h2 id={headingId} className="error-summary-title">
          There is a problem
        </h2>
        <ul className="error-summary-list">
          {errors.map((error) => (
            <li key={`${error.href} ${error.message}`}>
              <a href={error.href} onClick={(event) => goToField(event, error.href)}>
                {error.message}
              </a>
            </li>
          ))}
        </ul>
      </div>
    </div>
  )
}
