import type { ReactNode } from 'react'
import { Form } from 'react-router'
import { SEARCH_TEXT_MAX } from '~/modules/search/search-words'

interface SearchFormProps {
  /** The page that answers: `/search` for the site, `/marketplace` for products. */
  action: string
  /** A unique id for the box, which its label names. */
  id: string
  /** What the box is for, read by screen readers. */
  label: string
  placeholder: string
  /** The words asked for: the box starts with them, and is reset when they change. */
  words?: string
  /** Names the search landmark where a page has two (the header's and the page's own). */
  landmark?: string
  /** Fields sent along, e.g. the chosen category. */
  keep?: Record<string, string | null>
  className: string
  inputClassName: string
  buttonClassName: string
  /** The button's text, or an icon with `buttonLabel`. */
  button: ReactNode
  buttonLabel?: string
}

/** A plain GET form for the search engine's `?q=`: it works before and without JavaScript. */
export function SearchForm(props: SearchFormProps) {
  return (
    <Form method="get" action={props.action} role="search" aria-label={props.landmark} className={props.className}>
      {Object.entries(props.keep ?? {}).map(([name, value]) =>
        value ? <input key={name} type="hidden" name={name} value={value} /> : null,
      )}
      <label htmlFor={props.id} className="visually-hidden">
        {props.label}
      </label>
      <input
        id={props.id}
        type="search"
        name="q"
        defaultValue={props.words}
        key={props.words}
        maxLength={SEARCH_TEXT_MAX}
        placeholder={props.placeholder}
        className={props.inputClassName}
      />
      <button type="submit" className={props.buttonClassName} aria-label={props.buttonLabel}>
        {props.button}
      </button>
    </Form>
  )
}
