// Apart from forms.tsx, which loads zod's schemas: the sign-up form in every page's footer needs only this.

/**
 * A list of error messages. Always rendered (empty when there are none) so that the id that
 * aria-describedby points to exists. `variant="form"` boxes it for errors about the whole form.
 */
export function ErrorList({
  id,
  errors,
  variant = 'field',
}: {
  id?: string
  errors?: ReadonlyArray<string> | null
  variant?: 'field' | 'form'
}) {
  const messages = errors?.filter(Boolean) ?? []
  const list = (
    <ul id={variant === 'form' ? undefined : id} className="field-errors">
      {messages.map((message) => (
        <li key={message}>{message}</li>
      ))}
    </ul>
  )
  if (variant === 'field') return list
  // A list may not be an alert itself (its items would lose their list): the alert holds it.
  return (
    <div id={id} className="form-errors" role="alert">
      {messages.length > 0 ? list : null}
    </div>
  )
}
