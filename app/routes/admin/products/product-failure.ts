import type { Submission } from '@conform-to/react'
import { data } from 'react-router'
import { addFailedMessage, IMAGES_FAILED_MESSAGE } from '~/modules/marketplace/marketplace.schema'
import { ProductImagesFailedError } from '~/modules/marketplace/marketplace.service.server'
import { logger } from '~/platform/logger.server'
import { MediaRejectedError } from '~/platform/media/media-rejected'
import { replyWithRejectedMedia } from '~/platform/media/media-reply'

/**
 * The product form's answer when saving failed: a refused image under the images field, the
 * old site's messages in the form's error box otherwise (the details go to the log, not the page).
 */
export function productFailureReply(submission: Submission<unknown>, error: unknown, doing: 'add' | 'update') {
  if (error instanceof MediaRejectedError) return replyWithRejectedMedia(submission, error, 'uploads')
  logger.error({ err: error }, `product could not be ${doing === 'add' ? 'added' : 'updated'}`)
  const message =
    error instanceof ProductImagesFailedError
      ? IMAGES_FAILED_MESSAGE
      : doing === 'add'
        ? addFailedMessage('the site could not save it. Please try again.')
        : 'Failed to update product: the site could not save it. Please try again.'
  return data({ result: submission.reply({ formErrors: [message] }) }, { status: 500 })
}
