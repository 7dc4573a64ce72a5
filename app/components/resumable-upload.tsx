import { useEffect, useId, useRef, useState } from 'react'
import type { DetailedError, Upload } from 'tus-js-client'
import { ErrorList } from './forms'
import { makeThumbnail } from './image-thumbnail'
import { UPLOAD_CHUNK_BYTES, UPLOAD_ENDPOINT, UPLOAD_MAX_BYTES, UPLOAD_MAX_MB } from '~/platform/media/upload-policy'
import { useHydrated } from './use-hydrated'

/*
 * A file field that uploads in 5 MB chunks with the tus protocol while the form is being filled
 * in, and submits only the upload ids (hidden fields named `name`); the server takes the files
 * with takeFinishedUpload. A dropped connection is retried on its own; after a reload, choosing
 * the same file again continues where it stopped (tus-js-client remembers it in localStorage).
 *
 *   <ResumableUpload name="video" label="Video" errors={fields.video.errors} onBusyChange={setUploading} />
 */

/** 'failed' can be tried again (it continues where it stopped); 'refused' cannot. */
type ItemStatus = 'uploading' | 'done' | 'failed' | 'refused'

interface UploadItem {
  key: string
  filename: string
  percent: number
  status: ItemStatus
  uploadId?: string
  error?: string
  /** A preview of a chosen image, once drawn. */
  thumbnail?: string
}

const VIDEO_TYPES = 'video/mp4,video/webm,video/quicktime,.mp4,.webm,.mov'
// Waits between tries after a dropped connection: about a minute in all before asking the person.
const RETRY_DELAYS = [0, 1_000, 3_000, 5_000, 10_000, 20_000, 30_000]

function tooLargeMessage(filename: string): string {
  return `${filename} is too large. Maximum size is ${UPLOAD_MAX_MB} MB.`
}

/**
 * The server's own words when it refuses to start an upload: over a quota (which lifts once other
 * uploads finish, or with time) or no room left. Asking again at once would not help.
 */
function refusalInWords(error: Error): string | undefined {
  const { originalRequest, originalResponse } = error as DetailedError
  const status = originalResponse?.getStatus()
  if (originalRequest?.getMethod() !== 'POST' || !status || ![413, 429, 507].includes(status)) return undefined
  return originalResponse?.getBody()?.trim() || undefined
}

function failure(error: Error, filename: string): Pick<UploadItem, 'status' | 'error'> {
  const refusal = refusalInWords(error)
  if (refusal) return { status: 'failed', error: `${filename} was not uploaded. ${refusal}` }
  const status = (error as DetailedError).originalResponse?.getStatus()
  if (status === 413) return { status: 'refused', error: tooLargeMessage(filename) }
  return { status: 'failed', error: describeError(status, filename) }
}

function describeError(status: number | undefined, filename: string): string {
  if (status === 401 || status === 403 || status === 200) {
    return `${filename} could not be uploaded: you may have been signed out. Sign in again in another tab, then choose Try again.`
  }
  if (!status) return `The connection was lost while uploading ${filename}. Choose Try again to continue where it stopped.`
  return `${filename} could not be uploaded. Choose Try again to continue where it stopped.`
}

export function ResumableUpload({
  name,
  label,
  hint = `MP4, WebM or MOV, up to ${UPLOAD_MAX_MB} MB. If the upload stops, choose the same file again to continue where it stopped.`,
  accept = VIDEO_TYPES,
  multiple = false,
  refuse,
  maxFiles,
  errors,
  onBusyChange,
}: {
  /** Name of the hidden fields that carry the finished uploads' ids. */
  name: string
  label: string
  hint?: string
  accept?: string
  multiple?: boolean
  /** Checks a chosen file before it is sent: a message refuses it (e.g. its type), null lets it go. */
  refuse?: (file: File) => string | null
  /** The most files the form takes; beyond that a chosen file is refused with the message. */
  maxFiles?: { count: number; message: string }
  /** The server's messages about this field. */
  errors?: ReadonlyArray<string> | null
  /** Told when uploads start and all finish, e.g. to hold back the submit button meanwhile. */
  onBusyChange?: (busy: boolean) => void
}) {
  const id = useId()
  const hydrated = useHydrated()
  const [items, setItems] = useState<UploadItem[]>([])
  const uploads = useRef(new Map<string, Upload>())
  const lastKey = useRef(0)

  // Leaving the page pauses the uploads; they resume when the file is chosen again.
  useEffect(() => () => uploads.current.forEach((upload) => void upload.abort()), [])

  const busy = items.some((item) => item.status === 'uploading')
  useEffect(() => onBusyChange?.(busy), [busy, onBusyChange])

  function update(key: string, change: Partial<UploadItem>) {
    setItems((current) => current.map((item) => (item.key === key ? { ...item, ...change } : item)))
  }

  async function start(file: File, key: string) {
    const { Upload, defaultOptions } = await import('tus-js-client')
    const upload: Upload = new Upload(file, {
      endpoint: UPLOAD_ENDPOINT,
      chunkSize: UPLOAD_CHUNK_BYTES,
      retryDelays: RETRY_DELAYS,
      onShouldRetry: (error, attempt, options) =>
        !refusalInWords(error) && !!defaultOptions.onShouldRetry?.(error, attempt, options),
      metadata: { filename: file.name, filetype: file.type },
      removeFingerprintOnSuccess: true,
      onProgress: (sent, total) => update(key, { percent: Math.floor((sent / total) * 100) }),
      onSuccess: () => update(key, { status: 'done', percent: 100, uploadId: upload.url?.split('/').pop() }),
      onError: (error) => update(key, failure(error, file.name)),
    })
    uploads.current.set(key, upload)
    const [previous] = await upload.findPreviousUploads()
    if (previous) upload.resumeFromPreviousUpload(previous)
    upload.start()
  }

  function retry(key: string) {
    update(key, { status: 'uploading', error: undefined })
    uploads.current.get(key)?.start()
  }

  function remove(key: string) {
    // Terminating deletes the partial file on the server at once.
    void uploads.current.get(key)?.abort(true)
    uploads.current.delete(key)
    setItems((current) => current.filter((item) => item.key !== key))
  }

  function choose(event: React.ChangeEvent<HTMLInputElement>) {
    const files = [...(event.currentTarget.files ?? [])]
    event.currentTarget.value = '' // choosing the same file again (to resume) fires a change too
    if (!multiple) items.forEach((item) => remove(item.key))
    let taken = multiple ? items.filter((item) => item.status !== 'refused').length : 0
    const added = files.map((file): UploadItem & { file: File } => {
      const key = String(++lastKey.current)
      const problem =
        refuse?.(file) ??
        (file.size > UPLOAD_MAX_BYTES ? tooLargeMessage(file.name) : null) ??
        (maxFiles && taken >= maxFiles.count ? maxFiles.message : null)
      if (!problem) taken++
      return problem
        ? { key, file, filename: file.name, percent: 0, status: 'refused', error: problem }
        : { key, file, filename: file.name, percent: 0, status: 'uploading' }
    })
    setItems((current) => [...current, ...added.map(({ file: _file, ...item }) => item)])
    for (const item of added) {
      if (item.status !== 'uploading') continue
      start(item.file, item.key).catch((error: Error) => update(item.key, failure(error, item.filename)))
      if (item.file.type.startsWith('image/')) {
        void makeThumbnail(item.file).then((thumbnail) => thumbnail && update(item.key, { thumbnail }))
      }
    }
  }

  const inputId = `${id}-file`
  return (
    <div className="field resumable-upload">
      <label className="field-label" htmlFor={inputId}>
        {label}
      </label>
      <p id={`${id}-hint`} className="field-hint">
        {hint}
      </p>
      <input
        id={inputId}
        type="file"
        className="field-input"
        accept={accept}
        multiple={multiple}
        disabled={!hydrated}
        aria-describedby={`${id}-hint ${id}-errors`}
        aria-invalid={errors?.length ? true : undefined}
        onChange={choose}
      />
      {items.length > 0 ? (
        <ul className="upload-list">
          {items.map((item) => (
            <li key={item.key} className="upload-item">
              {item.thumbnail ? <img src={item.thumbnail} alt="" className="upload-thumbnail" /> : null}
              <label htmlFor={`${id}-${item.key}`} className="upload-name">
                {item.filename}
              </label>
              <div className="upload-progress">
                <progress id={`${id}-${item.key}`} max={100} value={item.percent}>
                  {item.percent}%
                </progress>
                <span aria-hidden="true">{item.percent}%</span>
              </div>
              <p role="status" className="upload-status">
                {item.status === 'done' ? 'Uploaded' : item.status === 'uploading' ? 'Uploading…' : null}
              </p>
              {item.error ? (
                <p role="alert" className="field-errors">
                  {item.error}
                </p>
              ) : null}
              <div className="button-row">
                {item.status === 'failed' ? (
                  <button type="button" className="button-secondary button-small" onClick={() => retry(item.key)}>
                    Try again
                  </button>
                ) : null}
                <button type="button" className="button-secondary button-small" onClick={() => remove(item.key)}>
                  Remove<span className="visually-hidden"> {item.filename}</span>
                </button>
              </div>
              {item.uploadId ? <input type="hidden" name={name} value={item.uploadId} /> : null}
            </li>
          ))}
        </ul>
      ) : null}
      <ErrorList id={`${id}-errors`} errors={errors} />
    </div>
  )
}
