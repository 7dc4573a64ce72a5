import { listUpcomingOccurrences } from '~/modules/events/events.queries.server'
import { formatOccurrenceWhen } from '~/modules/events/events.wording.server'
import { getPublicArticleForEmail } from '~/modules/news/news.queries.server'
import {
  batchProgress,
  OutgoingMailQuotaError,
  queueEmails,
  type BatchProgress,
} from '~/modules/outgoing-mail/outgoing-mail.server'
import { sendQueuedEmailsSoon } from '~/modules/outgoing-mail/outgoing-mail.delivery.server'
import { getSiteSettings } from '~/modules/settings/settings.queries.server'
import { createBackgroundWorker } from '~/platform/background-worker.server'
import type { Db } from '~/platform/db.server'
import { db, nowIso } from '~/platform/db.server'
import { env } from '~/platform/env.server'
import { escapeMarkup } from '~/platform/escape-markup'
import { logger } from '~/platform/logger.server'
import { isPublicNow } from '~/platform/publication.server'
import { composeEmail, subscriberLinks, type EmailContent } from './newsletter.emails.server'
import type { Topic } from './newsletter.schema'

/**
 * Mailings to the subscribers of a topic: an article of News once it is public (also when it was
 * scheduled), and the digest of upcoming events. Each is queued once, in one transaction that first
 * marks it queued under a condition only one process can meet, with one row per subscriber.
 */

/** The origin of links in mailings queued without a request (a scheduled article): PUBLIC_URL, which production sets. */
function backgroundOrigin(): string {
  return env.PUBLIC_URL ? new URL(env.PUBLIC_URL).origin : `http://localhost:${env.PORT}`
}

async function confirmedSubscribersOf(trx: Db, topic: Topic) {
  const rows = await trx
    .selectFrom('subscribers')
    .select(['id', 'email', 'topics', 'manageSecret'])
    .where('state', '=', 'confirmed')
    .execute()
  return rows.filter((row) => row.topics.split(',').includes(topic))
}

/**
 * Recipients composed and inserted at a time: each e-mail carries the whole article, so the
 * mailing is built chunk by chunk, never for every subscriber in one array.
 */
const MAILING_CHUNK = 500

/** Queues one e-mail per subscriber of `topic`, in `trx`; a refusal of the quota rolls back every chunk. */
async function queueToSubscribers(
  trx: Db,
  topic: Topic,
  mailing: { batchId: string; organisationName: string; origin: string; content: EmailContent },
): Promise<number> {
  const subscribers = await confirmedSubscribersOf(trx, topic)
  let queued = 0
  for (let start = 0; start < subscribers.length; start += MAILING_CHUNK) {
    const chunk = subscribers.slice(start, start + MAILING_CHUNK).map((subscriber) => ({
      ...composeEmail(
        mailing.organisationName,
        subscriber.email,
        mailing.content,
        subscriberLinks(mailing.origin, subscriber.manageSecret),
      ),
      batchId: mailing.batchId,
      dedupeKey: `${mailing.batchId}:${subscriber.id}`,
    }))
    queued += await queueEmails(trx, chunk, { origin: 'admin' })
  }
  return queued
}

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

/** Events a digest lists at most: those of the coming weeks, nearest first. */
const DIGEST_EVENTS = 20

/** The digest of a month, e.g. `digest:2026-12`: sent at most once a month to each subscriber. */
export function digestBatchId(now = new Date(), timeZone = 'UTC'): string {
  const month = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit' }).format(now)
  return `digest:${month}`
}

/**
 * E-mails the upcoming events to the subscribers of Events: once a month at most (a second press
 * in the same month queues nobody twice). Returns the batch, or null when no event is coming.
 */
export async function sendEventsDigest(origin: string): Promise<{ batchId: string; queued: number } | null> {
  const settings = await getSiteSettings()
  const occurrences = await listUpcomingOccurrences({ limit: DIGEST_EVENTS, timeZone: settings.timeZone })
  if (occurrences.length === 0) return null
  const lines = occurrences.map((o) => ({
    when: formatOccurrenceWhen(o, settings.timeZone),
    title: o.title,
    location: o.location,
    link: `${origin}/calendar/${encodeURIComponent(o.slug)}?date=${o.date}`,
  }))
  const content: EmailContent = {
    subject: `Coming up at ${settings.organisationName}`,
    html:
      '<h1 style="font-size:24px;margin:0 0 12px">Coming up</h1><ul style="padding-left:20px">' +
      lines
        .map(
          (l) =>
            `<li style="margin-bottom:8px"><a href="${escapeMarkup(l.link)}" style="color:#1d4e89;font-weight:bold">${escapeMarkup(l.title)}</a><br>${escapeMarkup(l.when)}${l.location ? ` · ${escapeMarkup(l.location)}` : ''}</li>`,
        )
        .join('') +
      `</ul><p><a href="${escapeMarkup(`${origin}/calendar`)}" style="color:#1d4e89">The whole calendar</a></p>`,
    text: [
      'Coming up',
      '',
      ...lines.map((l) => `- ${l.title}: ${l.when}${l.location ? `, ${l.location}` : ''}\n  ${l.link}`),
    ].join('\n'),
  }
  const batchId = digestBatchId(new Date(), settings.timeZone)
  const queued = await db
    .transaction()
    .execute((trx) =>
      queueToSubscribers(trx, 'events', { batchId, organisationName: settings.organisationName, origin, content }),
    )
  sendQueuedEmailsSoon()
  return { batchId, queued }
}

/** Looks every minute for scheduled articles that became public, in every process: the first to see one queues it. */
const dueArticlesMailer = createBackgroundWorker({
  name: 'e-mailing published articles',
  pass: async () => {
    await mailDueArticles()
    return { more: false }
  },
  intervalMs: 60_000,
})
export const startMailingWorker = dueArticlesMailer.start
export const stopMailingWorker = dueArticlesMailer.stop
