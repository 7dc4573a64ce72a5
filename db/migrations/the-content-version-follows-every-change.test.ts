import { sql } from 'kysely'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { aMessage } from '../../tests/fixtures/contact-message'
import { uploadAs } from '../../tests/fixtures/finished-upload'
import { createWeeklyEvent } from '../../tests/fixtures/weekly-event'
import { plainPng } from '../../tests/fixtures/images'
import { emptyUploadsBeforeEach } from '../../tests/setup/uploads'
import { recordAuditEvent } from '~/modules/audit/audit.service.server'
import { EventSchema } from '~/modules/events/events.schema'
import { deleteOccurrence } from '~/modules/events/events.service.server'
import { SignUpSchema } from '~/modules/events/signups.schema'
import { saveSignupForm, signUpForEvent } from '~/modules/events/signups.service.server'
import { insertMediaItem } from '~/modules/gallery/gallery.service.server'
import { storeContactMessage } from '~/modules/inbox/inbox.service.server'
import { productSchema } from '~/modules/marketplace/marketplace.schema'
import { createProduct } from '~/modules/marketplace/marketplace.service.server'
import { createArticle } from '~/modules/news/news.service.server'
import { queueEmails } from '~/modules/outgoing-mail/outgoing-mail.server'
import { demoPageContent } from '~/modules/pages/pages.demo'
import { savePageContent } from '~/modules/pages/pages.service.server'
import { DEMO_SITE_SETTINGS } from '~/modules/settings/settings.demo'
import { saveSiteSettings } from '~/modules/settings/settings.service.server'
import { createUser } from '~/modules/users/users.service.server'
import type { SessionUser } from '~/platform/auth.server'
import { markContentChanged, readContentVersion } from '~/platform/content-version.server'
import { addDays, todayIn } from '~/platform/dates'
import { db } from '~/platform/db.server'
import { insertVideo } from '~/platform/media/videos.server'
import { createRateLimiter } from '~/platform/rate-limit.server'
import { createSession } from '~/platform/session.server'
import { createMigrator } from '../migrate.server'

const DEVICE = { userAgent: null, clientAddress: '192.0.2.1' }

const ZONE = DEMO_SITE_SETTINGS.timeZone
const SITE = { siteName: 'Hearts of Hope', timeZone: ZONE }
const firstDate = addDays(todayIn(ZONE), 7)

emptyUploadsBeforeEach()
let admin: SessionUser
beforeEach(async () => {
  admin = await createUser({ email: 'ada@example.org', name: 'Ada Admin', role: 'admin', password: 'a long password' })
})

function weeklyEvent(values: Record<string, unknown> = {}) {
  return createWeeklyEvent(firstDate, values)
}

async function uploadedImage() {
  return (await uploadAs(admin, await plainPng(900, 600, '#336699'), 'photo.png', 'image/png')).id
}

/** Whether `write` renewed the token a reader sees (read before and after it). */
async function renews(write: () => Promise<unknown>): Promise<boolean> {
  const before = await readContentVersion()
  expect(await readContentVersion()).toBe(before)
  await write()
  return (await readContentVersion()) !== before
}

/** A script's write of one column of the table's rows to its own value: the table's trigger alone. */
function rewrite(table: string, column: string) {
  return () => sql`update ${sql.table(table)} set ${sql.ref(column)} = ${sql.ref(column)}`.execute(db)
}

describe('the content version', () => {
  it('is renewed by a write to each table public pages show, through its module or by a script', async () => {
    expect(await renews(() => saveSiteSettings({ ...DEMO_SITE_SETTINGS }, { actor: admin }))).toBe(true)
    expect(await renews(rewrite('settings', 'value'))).toBe(true)

    expect(await renews(() => savePageContent('about', demoPageContent.about))).toBe(true)
    expect(await renews(rewrite('page_sections', 'content'))).toBe(true)

    expect(await renews(() => createArticle({ title: 'Food drive', content: 'Saturday.', imageAlt: '' }))).toBe(true)
    expect(await renews(rewrite('articles', 'title'))).toBe(true)

    const uploadId = await uploadedImage()
    const product = productSchema('1268').parse({
      name: 'Banana Bread',
      description: 'Baked on Fridays.',
      uploads: [uploadId],
      keepImages: [],
      removeImages: [],
    })
    expect(await renews(() => createProduct(product, admin))).toBe(true)
    expect(await db.selectFrom('productImages').select('imageId').execute()).toHaveLength(1)
    expect(await renews(rewrite('products', 'name'))).toBe(true)
    expect(await renews(rewrite('product_images', 'position'))).toBe(true)
    expect(await renews(rewrite('images', 'alt'))).toBe(true)

    const video = { id: crypto.randomUUID(), filename: 'choir.mp4', format: 'mp4' as const }
    expect(await renews(() => db.transaction().execute((trx) => insertVideo(trx, video)))).toBe(true)
    expect(await renews(rewrite('videos', 'status'))).toBe(true)
    expect(
      await renews(() =>
        db
          .transaction()
          .execute((trx) =>
            insertMediaItem(
              trx,
              { title: 'Choir', description: '', category: 'Events', featured: true },
              { kind: 'video', videoId: video.id },
            ),
          ),
      ),
    ).toBe(true)
    expect(await renews(rewrite('media_items', 'title'))).toBe(true)

    const event = await weeklyEvent()
    expect(await renews(rewrite('events', 'title'))).toBe(true)
    expect(await renews(() => deleteOccurrence(event.id, addDays(firstDate, 7)))).toBe(true)
    expect(await renews(rewrite('event_skipped_dates', 'date'))).toBe(true)
    const signups = { takesSignups: true, signupContact: 'email', signupLimit: 2 }
    const { takesSignups, signupContact, signupLimit, signupAsksPartySize, signupClosesHoursBefore } = EventSchema.parse({
      title: 'x',
      description: 'x',
      location: 'x',
      startDate: firstDate,
      startTime: '09:00',
      ...signups,
    })
    const form = { takesSignups, signupContact, signupLimit, signupAsksPartySize, signupClosesHoursBefore }
    expect(await renews(() => db.transaction().execute((trx) => saveSignupForm(trx, event.id, form)))).toBe(true)
    expect(await renews(rewrite('event_signup_forms', 'place_limit'))).toBe(true)
  })

  it('stays the same after writes to tables no public page shows', async () => {
    expect(
      await renews(() => createUser({ email: 'ben@example.org', name: 'Ben', role: 'marketplace', password: 'a long password' })),
    ).toBe(false)
    expect(await renews(() => createSession(admin.id, DEVICE))).toBe(false)
    expect(await renews(() => storeContactMessage(aMessage()))).toBe(false)
    const email = { to: 'grace@example.com', subject: 'Hello', html: '<p>Hello.</p>', text: 'Hello.' }
    expect(await renews(() => db.transaction().execute((trx) => queueEmails(trx, [email])))).toBe(false)
    expect(await db.selectFrom('outgoingEmails').select('id').execute()).toHaveLength(1)
    expect(await renews(() => recordAuditEvent({ by: { actor: admin, clientAddress: '192.0.2.1' }, action: 'sign-in' }))).toBe(
      false,
    )
    expect(await renews(() => createRateLimiter('test', { attempts: 5, windowSeconds: 60 }).hit('192.0.2.1'))).toBe(false)
    expect(await db.selectFrom('rateLimits').select('key').execute()).toHaveLength(1)
    // An upload takes a lock and counts against the uploader's quota; nothing shows until it is saved with a record.
    expect(await renews(() => uploadedImage())).toBe(false)
  })

  it('is renewed when a date of an event becomes full or has places again, which no trigger sees', async () => {
    const { slug } = await weeklyEvent({ takesSignups: true, signupContact: 'email', signupLimit: 2 })
    let n = 0
    const signUp = () => {
      n++
      const input = SignUpSchema.parse({ date: firstDate, name: `Visitor ${n}`, email: `visitor${n}@example.com` })
      return signUpForEvent(slug, input, {
        clientKey: `198.51.100.${n}`,
        site: SITE,
        origin: 'https://charity.example',
        phoneCountryCode: '1268',
      })
    }
    expect(await renews(signUp)).toBe(false)
    expect(await renews(signUp)).toBe(true)
  })

  it('is renewed once for every process after a change, however many read it at once', async () => {
    await readContentVersion()
    const before = await readContentVersion()
    await createArticle({ title: 'Food drive', content: 'Saturday.', imageAlt: '' })
    const seen = await Promise.all(Array.from({ length: 6 }, () => readContentVersion()))
    expect(new Set(seen).size).toBe(1)
    expect(seen[0]).not.toBe(before)
    expect(await readContentVersion()).toBe(seen[0])
  })

  it('is renewed by its first reader on a site that has no renewal time yet (new, or restored)', async () => {
    await db.deleteFrom('settings').execute()
    const first = await readContentVersion()
    expect(first).not.toBe('none')
    expect(await readContentVersion()).toBe(first)
    expect(await renews(() => createArticle({ title: 'Food drive', content: 'Saturday.', imageAlt: '' }))).toBe(true)
    expect(await renews(() => markContentChanged())).toBe(true)
  })

  describe('with a scheduled article', () => {
    afterEach(() => vi.useRealTimers())

    it('is renewed when its publish time comes, once, and not before', async () => {
      const publishAt = new Date(Date.now() + 60 * 60_000).toISOString()
      await createArticle({ title: 'Tomorrow', content: 'Soon.', imageAlt: '', publishAt })
      const scheduled = await readContentVersion()
      expect(await readContentVersion()).toBe(scheduled)
      const next = await db.selectFrom('settings').select('value').where('key', '=', 'next-publish-at').executeTakeFirstOrThrow()
      expect(next.value).toBe(publishAt)

      vi.useFakeTimers({ toFake: ['Date'], now: new Date(Date.parse(publishAt) + 1_000) })
      const published = await readContentVersion()
      expect(published).not.toBe(scheduled)
      expect(await readContentVersion()).toBe(published)
      const after = await db.selectFrom('settings').select('value').where('key', '=', 'next-publish-at').executeTakeFirst()
      expect(after?.value).toBe('')
    })
  })

  it('is left to the forms again once the migration is undone, and followed again when it is redone', async () => {
    const { error } = await (await createMigrator()).migrateTo('0027-subscribers')
    if (error) throw error
    try {
      expect(await renews(() => createArticle({ title: 'Food drive', content: 'Saturday.', imageAlt: '' }))).toBe(false)
    } finally {
      const redone = await (await createMigrator()).migrateToLatest()
      if (redone.error) throw redone.error
    }
    expect(await renews(() => createArticle({ title: 'Clothes drive', content: 'Sunday.', imageAlt: '' }))).toBe(true)
  })
})
