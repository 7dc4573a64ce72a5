import type { Submission } from '@conform-to/react'
import { data } from 'react-router'
import type { MediaRejectedError } from './media-rejected'

/**
 * The form's answer when an upload was refused: the message under the file field, the rest of
 * the form as it was sent, status 400.
 *
 *   catch (error) {
 *     if (error instanceof MediaRejectedError) return replyWithRejectedMedia(submission, error, 'image')
 */
export function replyWithRejectedMedia(submission: Submission<unknown>, error: MediaRejectedError, field: string) {
  return data({ result: submission.reply({ fieldErrors: { [field]: [error.message] } }) }, { status: 400 })
}
