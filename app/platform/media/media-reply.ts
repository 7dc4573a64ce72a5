import type { Submission } from '@conform-to/react'
import { data } from 'react-router'
import type { MediaRejectedError } from './media-rejected'

/**
 * The form's answer when an upload was refused: the message under the file field, the rest of
 * the form as it was sent, with the error's status (400, or 507 when the server has no room).
 *
 *   catch (error) {
 *     if (error instanceof MediaRejectedError) return replyWithRejectedMedia(submission, error, 'image')
 */
export function replyWithRejectedMedia(submission: Submission<unknown>, error: MediaRejectedError, field: string) {
  return data({ result: submission.reply({ fieldErrors: { [field]: [error.message] } }) }, { status: error.status })
}
