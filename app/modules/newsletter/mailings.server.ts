import { getPublicArticleForEmail } from '~/modules/news/news.queries.server'
import { batchProgress, OutgoingMailQuotaError, type BatchProgress } from '~/modules/outgoing-mail/outgoing-mail.server'
import { sendQueuedEmailsSoon } from '~/modules/outgoing-mail/outgoing-mail.delivery.server'
import { getSiteSettings } from '~/modules/settings/settings.queries.server'
import { createBackgroundWorker } from '~/platform/background-worker.server'
import { db, nowIso } from '~/platform/db.server'
import { escapeMarkup } from '~/platform/escape-markup'
import { logger } from '~/platform/logger.server'
import { isPublicNow } from '~/platform/publication.server'
import { sendScheduledDigest } from './events-digest.server'
import type { EmailContent } from './newsletter.emails.server'
import { backgroundOrigin, queueToSubscribers } from './subscriber-mailing.server'

/**
 * An article of News e-mailed to the subscribers of News once it is public (also when it was
 * scheduled): queued once, in one transaction that first marks it queued under a condition only
 * one process can meet, with one row per subscriber.
 */

export function articleBatchId(articleId: string): string {
  return `article:${articleId}`
}

/** Asks for the article to be e-mailed to the subscribers of News once it is public (now, if it is). */
export async function emailArticleWhenPublic(articleId: string, origin: string): Promise<void> {
  await db
    .updateTable('articles')
    .set({ emailToSubscribers: 1 })
    .where('id', '=', articleId)
    .where('emailedAt', 'is', null)
    .execute()
  await mailDueArticles(origin)
}

/** Articles asked to be e-mailed, public now and not e-mailed yet: each is queued exactly once, by whichever process comes first. */
export async function mailDueArticles(origin: string = backgroundOrigin()): Promise<number> {
  const due = await db
    .selectFrom('articles')
    .select('id')
    .where('emailToSubscribers', '=', 1)
    .where('emailedAt', 'is', null)
    .where(isPublicNow('articles'))
    .limit(20)
    .execute()
  let mailed = 0
  for (const { id } of due) {
    const [article, { organisationName }] = await Promise.all([getPublicArticleForEmail(id, origin), getSiteSettings()])
    if (!article) continue
    const link = `${origin}/news/${article.slug}`
    const image = article.socialImage
      ? `<p><img src="${escapeMarkup(origin + article.socialImage.path)}" alt="${escapeMarkup(article.socialImage.alt)}" width="${article.socialImage.width}" style="max-width:100%;height:auto"></p>`
      : ''
    const content: EmailContent = {
      subject: article.title,
      html: `<h1 style="font-size:24px;margin:0 0 12px">${escapeMarkup(article.title)}</h1>${image}${article.html}<p><a href="${escapeMarkup(link)}" style="color:#1d4e89">Read it on our website</a></p>`,
      text: `${article.title}\n\n${article.excerpt}\n\nRead it on our website: ${link}`,
    }
    try {
      const queued = await db.transaction().execute(async (trx) => {
        const claimed = await trx
          .updateTable('articles')
          .set({ emailedAt: nowIso() })
          .where('id', '=', id)
          .where('emailedAt', 'is', null)
          .executeTakeFirst()
        if (Number(claimed.numUpdatedRows) === 0) return null // another process queued it
        return queueToSubscribers(trx, 'news', { batchId: articleBatchId(id), organisationName, origin, content })
      })
      if (queued !== null) mailed++
    } catch (error) {
      // Nothing was queued or marked: the next pass tries again once the queue has room.
      if (!(error instanceof OutgoingMailQuotaError)) throw error
      logger.warn({ articleId: id }, 'article not e-mailed yet: too many e-mails waiting')
    }
  }
  if (mailed > 0) sendQueuedEmailsSoon()
  return mailed
}

export interface ArticleMailing {
  /** Asked for, and not sent yet (it is scheduled or a draft). */
  waitingForPublication: boolean
  progress: BatchProgress | null
}

export async function articleMailingOf(articleId: string): Promise<ArticleMailing> {
  const row = await db
    .selectFrom('articles')
    .select(['emailToSubscribers', 'emailedAt'])
    .where('id', '=', articleId)
    .executeTakeFirst()
  if (!row) return { waitingForPublication: false, progress: null }
  return {
    waitingForPublication: row.emailToSubscribers === 1 && row.emailedAt === null,
    progress: row.emailedAt ? await batchProgress(articleBatchId(articleId)) : null,
  }
}

/**
 * Looks every minute, in every process, for scheduled articles that became public and for the
 * events digest's day: the first process to see one queues it.
 */
const dueArticlesMailer = createBackgroundWorker({
  name: 'e-mailing published articles and the events digest',
  pass: async () => {
    await mailDueArticles()
    await sendScheduledDigest()
    return { more: false }
  },
  intervalMs: 60_000,
})
export const startMailingWorker = dueArticlesMailer.start
export const stopMailingWorker = dueArticlesMailer.stop
