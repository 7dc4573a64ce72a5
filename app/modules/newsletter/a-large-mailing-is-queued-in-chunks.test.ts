import { beforeEach, describe, expect, it } from 'vitest'
import { createArticle } from '~/modules/news/news.service.server'
import { batchProgress } from '~/modules/outgoing-mail/outgoing-mail.server'
import { DEMO_SITE_SETTINGS } from '~/modules/settings/settings.demo'
import { saveSiteSettings } from '~/modules/settings/settings.service.server'
import { db, nowIso } from '~/platform/db.server'
import { articleBatchId, emailArticleWhenPublic } from './mailings.server'

beforeEach(async () => {
  await saveSiteSettings({ ...DEMO_SITE_SETTINGS, email: 'office@charity.example' }, { actor: { id: 'test' } })
})

describe('a mailing to many subscribers', () => {
  it('queues one e-mail to each, across several chunks, and a second request queues nobody twice', async () => {
    const now = nowIso()
    const subscribers = Array.from({ length: 1_201 }, (_, i) => ({
      id: `s${i}`,
      email: `reader${i}@example.org`,
      firstName: '',
      topics: i % 100 === 0 ? 'events' : 'news',
      state: 'confirmed' as const,
      confirmSecretHash: null,
      manageSecret: `manage-${i}`,
      createdAt: now,
      pendingSince: null,
      confirmedAt: now,
      unsubscribedAt: null,
      updatedAt: now,
    }))
    for (let start = 0; start < subscribers.length; start += 100) {
      await db
        .insertInto('subscribers')
        .values(subscribers.slice(start, start + 100))
        .execute()
    }
    const { id } = await createArticle({ title: 'Harvest day', content: 'We picked **everything**.', imageAlt: '' })
    await emailArticleWhenPublic(id, 'https://charity.example')
    await emailArticleWhenPublic(id, 'https://charity.example')
    expect(await batchProgress(articleBatchId(id))).toEqual({ sent: 0, waiting: 1_188, failed: 0 })
    const one = await db
      .selectFrom('outgoingEmails')
      .select(['textBody', 'origin'])
      .where('toAddress', '=', 'reader1200@example.org')
      .executeTakeFirst()
    expect(one).toBeUndefined() // reader1200 chose events only
    const last = await db
      .selectFrom('outgoingEmails')
      .select(['textBody', 'origin'])
      .where('toAddress', '=', 'reader1199@example.org')
      .executeTakeFirstOrThrow()
    expect(last.origin).toBe('admin')
    expect(last.textBody).toContain('https://charity.example/subscribe/unsubscribe/manage-1199')
  })
})
