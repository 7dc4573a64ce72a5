import { getInputProps, getSelectProps, getTextareaProps, type FieldMetadata } from '@conform-to/react'
import type { InputHTMLAttributes, SelectHTMLAttributes, TextareaHTMLAttributes } from 'react'
import { PASSWORD_MIN_LENGTH } from '~/modules/users/users.schema'
import { ErrorList } from './error-list'

export { ErrorList }

/*
 * Form fields for conform: a label above the control, an optional hint, and the field's
 * errors below it, wired together with aria-describedby / aria-invalid.
 *
 *   const [form, fields] = useForm({ ... })
 *   <Field meta={fields.title} label="Title" />
 *   <TextareaField meta={fields.content} label="Content" rows={8} />
 *   <SelectField meta={fields.category} label="Category" options={[{ value: 'general', label: 'General' }]} />
 *   <ErrorList id={form.errorId} errors={form.errors} variant="form" />   (form-level errors, in an alert)
 */

export type Meta = FieldMetadata<any, any, string[]>

type InputType = Exclude<Parameters<typeof getInputProps>[1]['type'], 'checkbox' | 'radio'>

export interface FieldFrameProps {
  meta: Meta
  label: string
  hint?: string
  className?: string
  /**
   * Live text under the control, e.g. what the value typed becomes; read out politely when it
   * changes. Pass null while there is nothing to say: the live region must be there before it speaks.
   */
  note?: React.ReactNode
  /** The messages shown under the control, when not the field's own (one message shared by two fields is said once). */
  errors?: ReadonlyArray<string>
}

export function hintIdFor(meta: Meta, hint: string | undefined) {
  return hint ? `${meta.id}-hint` : undefined
}

/** The label, hint and errors around a control: for fields built on the same frame (the Markdown editor). */
export function FieldFrame({
  meta,
  label,
  hint,
  className,
  note,
  errors = meta.errors,
  children,
}: FieldFrameProps & { children: React.ReactNode }) {
  return (
    <div className={className ? `field ${className}` : 'field'}>
      <label className="field-label" htmlFor={meta.id}>
        {label}
      </label>
      {hint ? (
        <p id={hintIdFor(meta, hint)} className="field-hint">
          {hint}
        </p>
      ) : null}
      {children}
      {note !== undefined ? (
        <output htmlFor={meta.id} className="field-note">
          {note}
        </output>
      ) : null}
      <ErrorList id={meta.errorId} errors={errors} />
    </div>
  )
}

type FieldProps = FieldFrameProps & { type?: InputType } & Omit<
    InputHTMLAttributes<HTMLInputElement>,
    'type' | 'name' | 'id' | 'defaultValue' | 'className'
  >

export function Field({ meta, label, hint, className, note, type = 'text', ...rest }: FieldProps) {
  const { key, ...props } = getInputProps(meta, { type, ariaDescribedBy: hintIdFor(meta, hint) })
  return (
    <FieldFrame meta={meta} label={label} hint={hint} className={className} note={note}>
      <input key={key} className="field-input" {...props} {...rest} />
    </FieldFrame>
  )
}

type TextareaFieldProps = FieldFrameProps &
  Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'name' | 'id' | 'defaultValue' | 'className'>

export function TextareaField({ meta, label, hint, className, errors, ...rest }: TextareaFieldProps) {
  const { key, ...props } = getTextareaProps(meta, { ariaDescribedBy: hintIdFor(meta, hint) })
  return (
    <FieldFrame meta={meta} label={label} hint={hint} className={className} errors={errors}>
      <textarea key={key} className="field-input" {...props} {...rest} />
    </FieldFrame>
  )
}

type SelectFieldProps = FieldFrameProps & {
  options: ReadonlyArray<{ value: string; label: string }>
  /** Text of a first, empty option (e.g. 'Choose a category'); omitted when not given. */
  placeholder?: string
} & Omit<SelectHTMLAttributes<HTMLSelectElement>, 'name' | 'id' | 'defaultValue' | 'className'>

export function SelectField({ meta, label, hint, className, options, placeholder, ...rest }: SelectFieldProps) {
  const { key, ...props } = getSelectProps(meta, { ariaDescribedBy: hintIdFor(meta, hint) })
  return (
    <FieldFrame meta={meta} label={label} hint={hint} className={className}>
      <select key={key} className="field-input" {...props} {...rest}>
        {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </FieldFrame>
  )
}

type CheckboxFieldProps = FieldFrameProps &
  Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'name' | 'id' | 'defaultChecked' | 'className'>

/** A checkbox with its label beside it (zod: `z.boolean().default(false)`; conform sends 'on'). */
export function CheckboxField({ meta, label, hint, className, ...rest }: CheckboxFieldProps) {
  const { key, ...props } = getInputProps(meta, { type: 'checkbox', ariaDescribedBy: hintIdFor(meta, hint) })
  return (
    <div className={className ? `field ${className}` : 'field'}>
      <div className="field-checkbox">
        <input key={key} {...props} {...rest} />
        <label htmlFor={meta.id}>{label}</label>
      </div>
      {hint ? (
        <p id={hintIdFor(meta, hint)} className="field-hint">
          {hint}
        </p>
      ) : null}
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </div>
  )
}

/** A new password typed twice, as every form that sets one asks for it. */
export function NewPasswordFields({
  newPassword,
  confirmPassword,
  labels = { newPassword: 'New password', confirmPassword: 'Repeat new password' },
}: {
  newPassword: Meta
  confirmPassword: Meta
  labels?: { newPassword: string; confirmPassword: string }
}) {
  return (
    <>
      <Field
        meta={newPassword}
        label={labels.newPassword}
        type="password"
        autoComplete="new-password"
        hint={`At least ${PASSWORD_MIN_LENGTH} characters.`}
        required
      />
      <Field meta={confirmPassword} label={labels.confirmPassword} type="password" autoComplete="new-password" required />
    </>
  )
}

/** One of a few choices, each a radio button with its label and a line saying what it means. */
export function RadioChoiceField({
  meta,
  label,
  options,
}: {
  meta: Meta
  label: string
  options: ReadonlyArray<{ value: string; label: string; hint: string }>
}) {
  const invalid = meta.errors ? true : undefined
  return (
    <fieldset className="field field-choices" aria-describedby={invalid ? meta.errorId : undefined}>
      <legend className="field-label">{label}</legend>
      {options.map((option) => {
        const id = `${meta.id}-${option.value}`
        return (
          <div key={option.value} className="field-choice">
            <div className="field-checkbox">
              <input
                type="radio"
                id={id}
                name={meta.name}
                value={option.value}
                defaultChecked={meta.initialValue === option.value}
                aria-invalid={invalid}
                aria-describedby={`${id}-hint`}
                required
              />
              <label htmlFor={id}>{option.label}</label>
            </div>
            <p id={`${id}-hint`} className="field-hint">
              {option.hint}
            </p>
          </div>
        )
      })}
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </fieldset>
  )
}
