import { useRootData } from './root-data'

function megabytes(bytes: number): string {
  return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`
}

/** Why a post was refused unread; also the text of the 413 error page. */
export function bodyTooLargeMessage(limitBytes: number): string {
  return `What you sent was larger than ${megabytes(limitBytes)}, the most one form can send, so nothing was saved. Choose smaller or fewer files and send the form again.`
}

/**
 * Shown at the top of a page whose form was posted with more than the server reads (when no
 * JavaScript ran to check the files before sending).
 */
export function BodyTooLargeNotice({ className }: { className?: string }) {
  const { bodyTooLarge, uploadLimitBytes } = useRootData()
  if (!bodyTooLarge) return null
  return (
    <div className={className}>
      <p className="field-errors form-errors" role="alert">
        {bodyTooLargeMessage(uploadLimitBytes)}
      </p>
    </div>
  )
}
