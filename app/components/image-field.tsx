import { getInputProps, type FieldMetadata } from '@conform-to/react'
import { useEffect, useRef, useState } from 'react'
import { ErrorList } from './forms'
import { ResponsiveImage } from './responsive-image'
import { useRootData } from './root-data'
import { acceptOf, fileProblem, type ImagePresetName } from '~/platform/media/image-presets'
import type { ResponsiveImageData } from '~/platform/media/image-types'
import { makeThumbnail } from './image-thumbnail'

type Meta = FieldMetadata<any, any, string[]>

export interface ImageFieldProps {
  /** The file input's field (`image` of `singleImageFields`). */
  meta: Meta
  label: string
  hint?: string
  preset: ImagePresetName
  /** The record's image now (editing); shown with a checkbox that removes it. */
  current?: ResponsiveImageData | null
  /** The `removeImage` field. */
  removeMeta: Meta
}

interface Selected {
  file: File
  /** A small JPEG of it as a data: URL, once made; null while it is made or if the browser cannot read the file. */
  thumbnail: string | null
}

function formatMegabytes(bytes: number): string {
  return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`
}

/** What is wrong with a selection before it is sent, or null. */
function selectionProblem(files: readonly File[], preset: ImagePresetName, uploadLimitBytes: number): string | null {
  const refused = files.map((file) => fileProblem(file, preset)).find((problem) => problem !== null)
  if (refused) return refused
  const total = files.reduce((sum, file) => sum + file.size, 0)
  if (total > uploadLimitBytes) {
    return `Together these files are ${formatMegabytes(total)}, more than the ${formatMegabytes(uploadLimitBytes)} one form can send. Choose fewer or smaller files.`
  }
  return null
}

/**
 * A record's single image, sent with the form (a list of images comes through
 * <ResumableUpload> and <CurrentImageList> instead).
 *
 * Without JavaScript it is a plain file input, and the current image has a "Remove" checkbox.
 * With JavaScript the chosen file is previewed and can be taken out again before sending, and
 * its size is checked before anything is sent (nothing typed is lost).
 */
export function ImageField(props: ImageFieldProps) {
  const { meta, label, hint, preset } = props
  const { uploadLimitBytes } = useRootData()
  const inputRef = useRef<HTMLInputElement>(null)
  const [selected, setSelected] = useState<Selected[]>([])
  const [problem, setProblem] = useState<string | null>(null)
  const [announcement, setAnnouncement] = useState('')
  const check = (files: readonly File[]) => selectionProblem(files, preset, uploadLimitBytes)

  const selection = useRef(0)
  // A selection that cannot be sent is not sent: the form stays as it is, with the message.
  const problemRef = useRef(problem)
  problemRef.current = problem
  useEffect(() => {
    const form = inputRef.current?.form
    if (!form) return
    const refuse = (event: SubmitEvent) => {
      if (!problemRef.current) return
      event.preventDefault()
      event.stopImmediatePropagation()
      inputRef.current?.focus()
    }
    form.addEventListener('submit', refuse)
    return () => form.removeEventListener('submit', refuse)
  }, [])

  function showSelection(files: File[]) {
    const current = ++selection.current
    setSelected(files.map((file) => ({ file, thumbnail: null })))
    setProblem(check(files))
    // A refused file is not decoded for nothing.
    files.forEach(async (file, index) => {
      const thumbnail = fileProblem(file, preset) === null ? await makeThumbnail(file) : null
      if (!thumbnail || selection.current !== current) return
      setSelected((all) => all.map((s, i) => (i === index ? { ...s, thumbnail } : s)))
    })
  }

  function removeSelected(index: number) {
    const input = inputRef.current
    if (!input?.files) return
    const remaining = new DataTransfer()
    Array.from(input.files).forEach((file, i) => i !== index && remaining.items.add(file))
    input.files = remaining.files
    const files = Array.from(remaining.files)
    showSelection(files)
    setAnnouncement(`${selected[index]?.file.name ?? 'The file'} removed.`)
    input.focus()
  }

  const hintId = hint ? `${meta.id}-hint` : undefined
  const { key, ...inputProps } = getInputProps(meta, { type: 'file', ariaDescribedBy: hintId })
  const errors = problem ? [problem] : meta.errors

  return (
    <div className="field image-field">
      {props.current ? (
        <figure className="image-field-current">
          <ResponsiveImage image={props.current} sizes="16rem" />
          <figcaption>Current image</figcaption>
        </figure>
      ) : null}
      {props.current && props.removeMeta ? <RemoveCheckbox meta={props.removeMeta} label="Remove the current image" /> : null}

      <label className="field-label" htmlFor={meta.id}>
        {label}
      </label>
      {hint ? (
        <p id={hintId} className="field-hint">
          {hint}
        </p>
      ) : null}
      <input
        key={key}
        ref={inputRef}
        className="field-input"
        {...inputProps}
        accept={acceptOf(preset)}
        aria-invalid={errors?.length ? true : undefined}
        aria-describedby={[errors?.length ? meta.errorId : null, hintId].filter(Boolean).join(' ') || undefined}
        onChange={(event) => showSelection(Array.from(event.currentTarget.files ?? []))}
      />
      {selected.length > 0 ? (
        <ul className="image-field-previews" aria-label="Chosen files">
          {selected.map(({ file, thumbnail }, index) => (
            <li key={`${index}-${file.name}`} className="image-field-item">
              {thumbnail ? <img src={thumbnail} alt="" /> : null}
              <span className="image-field-name">
                {file.name} ({formatMegabytes(file.size)})
              </span>
              <button
                type="button"
                className="button-secondary button-small"
                aria-label={`Remove ${file.name}`}
                onClick={() => removeSelected(index)}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <ErrorList id={meta.errorId} errors={errors} />
      <p className="visually-hidden" role="status">
        {announcement}
      </p>
    </div>
  )
}

function RemoveCheckbox({ meta, label }: { meta: Meta; label: string }) {
  const { key, ...props } = getInputProps(meta, { type: 'checkbox' })
  return (
    <div className="field-checkbox">
      <input key={key} {...props} />
      <label htmlFor={meta.id}>{label}</label>
    </div>
  )
}
