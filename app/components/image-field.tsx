import { getInputProps, type FieldMetadata } from '@conform-to/react'
import { useEffect, useRef, useState } from 'react'
import { ErrorList } from './forms'
import { ResponsiveImage } from './responsive-image'
import { useRootData } from './root-data'
import { IMAGE_ACCEPT, IMAGE_PRESETS, type ImagePresetName } from '~/platform/media/image-presets'
import type { ResponsiveImageData } from '~/platform/media/image-types'

type Meta = FieldMetadata<any, any, string[]>

/** An image the record has now, as the edit page shows it. */
export interface CurrentImage {
  id: string
  image: ResponsiveImageData
}

interface ImageFieldBase {
  /** The file input's field (`image` or `images` of `singleImageFields` / `imageListFields`). */
  meta: Meta
  label: string
  hint?: string
  preset: ImagePresetName
}

interface SingleImageField extends ImageFieldBase {
  /** The record's image now (editing); shown with a checkbox that removes it. */
  current?: ResponsiveImageData | null
  /** The `removeImage` field. */
  removeMeta: Meta
  list?: undefined
}

interface ImageListField extends ImageFieldBase {
  list: {
    /** The record's images now, in order (editing). */
    current: readonly CurrentImage[]
    /** The `keepImages` and `removeImages` fields. */
    keepMeta: Meta
    removeMeta: Meta
    max: number
    tooManyMessage: string
  }
  current?: undefined
  removeMeta?: undefined
}

export type ImageFieldProps = SingleImageField | ImageListField

interface Selected {
  file: File
  /** A small JPEG of it as a data: URL, once made; null while it is made or if the browser cannot read the file. */
  thumbnail: string | null
}

const THUMBNAIL_WIDTH = 192

/**
 * A small copy of a chosen image, drawn by the browser. A data: URL rather than an object URL:
 * a thumbnail is small, and nothing then holds on to the whole file.
 */
async function makeThumbnail(file: File): Promise<string | null> {
  try {
    const bitmap = await createImageBitmap(file, { resizeWidth: THUMBNAIL_WIDTH, resizeQuality: 'medium' })
    const canvas = document.createElement('canvas')
    canvas.width = bitmap.width
    canvas.height = bitmap.height
    canvas.getContext('2d')?.drawImage(bitmap, 0, 0)
    bitmap.close()
    return canvas.toDataURL('image/jpeg', 0.8)
  } catch {
    return null // not an image the browser can read: the server will say so
  }
}

function formatMegabytes(bytes: number): string {
  return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`
}

/** What is wrong with a selection before it is sent, or null. */
function selectionProblem(
  files: readonly File[],
  preset: ImagePresetName,
  room: { max: number; tooManyMessage: string } | null,
  uploadLimitBytes: number,
): string | null {
  const { maxBytes, tooLargeMessage } = IMAGE_PRESETS[preset]
  const tooLarge = files.find((file) => file.size > maxBytes)
  if (tooLarge) return tooLargeMessage(tooLarge.name)
  if (room && files.length > room.max) return room.tooManyMessage
  const total = files.reduce((sum, file) => sum + file.size, 0)
  if (total > uploadLimitBytes) {
    return `Together these files are ${formatMegabytes(total)}, more than the ${formatMegabytes(uploadLimitBytes)} one form can send. Choose fewer or smaller files.`
  }
  return null
}

/**
 * An image upload field: a record's single image or an ordered list of images.
 *
 * Without JavaScript it is a plain file input, and each current image has a "Remove" checkbox.
 * With JavaScript the chosen files are previewed and can be taken out again before sending,
 * sizes and counts are checked before anything is sent (nothing typed is lost), and a list's
 * current images can be moved earlier or later.
 */
export function ImageField(props: ImageFieldProps) {
  const { meta, label, hint, preset } = props
  const { uploadLimitBytes } = useRootData()
  const inputRef = useRef<HTMLInputElement>(null)
  const [selected, setSelected] = useState<Selected[]>([])
  const [order, setOrder] = useState(() => props.list?.current.map((c) => c.id) ?? [])
  const [problem, setProblem] = useState<string | null>(null)
  const [announcement, setAnnouncement] = useState('')
  const [hydrated, setHydrated] = useState(false)
  useEffect(() => setHydrated(true), [])

  const room = props.list ? { max: props.list.max - order.length, tooManyMessage: props.list.tooManyMessage } : null
  const check = (files: readonly File[]) => selectionProblem(files, preset, room, uploadLimitBytes)

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
    // A file refused for its size is not decoded for nothing.
    const { maxBytes } = IMAGE_PRESETS[preset]
    files.forEach(async (file, index) => {
      const thumbnail = file.size <= maxBytes ? await makeThumbnail(file) : null
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

  function move(id: string, by: -1 | 1) {
    const from = order.indexOf(id)
    const to = from + by
    if (to < 0 || to >= order.length) return
    const next = [...order]
    next.splice(from, 1)
    next.splice(to, 0, id)
    setOrder(next)
    setAnnouncement(`Image moved to position ${to + 1} of ${next.length}.`)
  }

  const hintId = hint ? `${meta.id}-hint` : undefined
  const { key, ...inputProps } = getInputProps(meta, { type: 'file', ariaDescribedBy: hintId })
  const errors = problem ? [problem] : meta.errors
  const currentById = new Map(props.list?.current.map((c) => [c.id, c]))

  return (
    <div className="field image-field">
      {props.current ? (
        <figure className="image-field-current">
          <ResponsiveImage image={props.current} sizes="16rem" />
          <figcaption>Current image</figcaption>
        </figure>
      ) : null}
      {props.current && props.removeMeta ? (
        <RemoveCheckbox meta={props.removeMeta} label="Remove the current image" />
      ) : null}

      {props.list && order.length > 0 ? (
        <ol className="image-field-list" aria-label="Current images">
          {order.map((id, index) => {
            const current = currentById.get(id)!
            const position = `image ${index + 1}`
            return (
              <li key={id} className="image-field-item">
                <input type="hidden" name={props.list!.keepMeta.name} value={id} />
                <ResponsiveImage image={current.image} sizes="8rem" />
                <div className="image-field-actions">
                  <label className="field-checkbox">
                    <input type="checkbox" name={props.list!.removeMeta.name} value={id} />
                    Remove {position}
                  </label>
                  {hydrated ? (
                    <>
                      <button
                        type="button"
                        className="button-secondary button-small"
                        aria-label={`Move ${position} earlier`}
                        disabled={index === 0}
                        onClick={() => move(id, -1)}
                      >
                        Earlier
                      </button>
                      <button
                        type="button"
                        className="button-secondary button-small"
                        aria-label={`Move ${position} later`}
                        disabled={index === order.length - 1}
                        onClick={() => move(id, 1)}
                      >
                        Later
                      </button>
                    </>
                  ) : null}
                </div>
              </li>
            )
          })}
        </ol>
      ) : null}

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
        accept={IMAGE_ACCEPT}
        multiple={!!props.list}
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
