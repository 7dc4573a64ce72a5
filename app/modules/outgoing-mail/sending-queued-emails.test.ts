import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { MailCatcher } from '../../../tests/fixtures/mail-catcher'
import { DEMO_SITE_SETTINGS } from '~/modules/settings/settings.demo'
import { saveSiteSettings } from '~/modules/settings/settings.service.server'
import { db } from '~/platform/db.server'
import { env } from '~/platform/env.server'
import { INTERRUPTED_SEND, markInterruptedSends, outgoingMailIdle, sendDueEmails } from './outgoing-mail.delivery.server'
import {
  batchProgress,
  deleteOldFinishedEmails,
  KEEP_FINISHED_EMAILS_DAYS,
  OUTGOING_MAIL_MESSAGES,
  OutgoingMailQuotaError,
  queueEmails,
  removeEmailsTo,
  type EmailOrigin,
  type OutgoingEmail,
} from './outgoing-mail.server'

const original = {
  SMTP_URL: env.SMTP_URL,
  SMTP_FROM: env.SMTP_FROM,
  OUTGOING_EMAILS_PER_SECOND: env.OUTGOING_EMAILS_PER_SECOND,
  OUTGOING_EMAILS_MAX_WAITING: env.OUTGOING_EMAILS_MAX_WAITING,
}
let mail: MailCatcher

beforeEach(async () => {
  await saveSiteSettings({ ...DEMO_SITE_SETTINGS, email: 'office@charity.example' }, { actor: { id: 'test' } })
  mail = new MailCatcher()
  await mail.start()
  Object.assign(env, { SMTP_URL: mail.url, SMTP_FROM: undefined, OUTGOING_EMAILS_PER_SECOND: 1000 })
})

afterEach(async () => {
  await outgoingMailIdle()
  await mail.stop()
  Object.assign(env, original)
})

function anEmail(to: string, extra: Partial<OutgoingEmail> = {}): OutgoingEmail {
  return { to, subject: 'News from the ministry', html: '<p>Hello</p>', text: 'Hello', ...extra }
}

function queue(emails: OutgoingEmail[], origin: EmailOrigin = 'admin'): Promise<number> {
  return db.transaction().execute((trx) => queueEmails(trx, emails, { origin }))
}

const inAnHour = () => new Date(Date.now() + 60 * 60_000)

describe('the outgoing-mail queue', () => {
  it('sends each queued e-mail once, with its headers, attachment and plain-text part', async () => {
    await queue([
      anEmail('Ann@Example.org', {
        batchId: 'b1',
        headers: { 'List-Unsubscribe': '<https://charity.example/u/1>', 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
        attachments: [{ filename: 'event.ics', contentType: 'text/calendar', content: 'BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n' }],
      }),
      anEmail('bob@example.org', { batchId: 'b1' }),
    ])
    expect(await batchProgress('b1')).toEqual({ sent: 0, waiting: 2, failed: 0 })

    const passes = await Promise.all([sendDueEmails(), sendDueEmails()])
    expect(passes.reduce((sum, p) => sum + p.finished, 0)).toBe(2)
    expect(await sendDueEmails({ now: inAnHour() })).toMatchObject({ finished: 0, retried: 0, gaveUp: 0 })

    expect(mail.mails.map((m) => m.recipients[0]).sort()).toEqual(['ann@example.org', 'bob@example.org'])
    const ann = mail.mails.find((m) => m.recipients[0] === 'ann@example.org')!
    expect(ann.raw).toContain('List-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n')
    expect(ann.raw).toContain('List-Unsubscribe: <https://charity.example/u/1>\r\n')
    expect(ann.parsed.text?.trim()).toBe('Hello')
    expect(ann.parsed.html).toContain('<p>Hello</p>')
    expect(ann.parsed.attachments.map((a) => [a.filename, a.contentType])).toEqual([['event.ics', 'text/calendar']])
    expect(await batchProgress('b1')).toEqual({ sent: 2, waiting: 0, failed: 0 })
  })

  it('never queues the same e-mail twice under one key', async () => {
    expect(await queue([anEmail('ann@example.org', { dedupeKey: 'article:1:s1' })])).toBe(1)
    expect(await queue([anEmail('ann@example.org', { dedupeKey: 'article:1:s1' }), anEmail('bob@example.org')])).toBe(1)
    await sendDueEmails()
    expect(mail.mails).toHaveLength(2)
  })

  it('retries a temporary refusal and stops at a permanent one', async () => {
    mail.refusedRecipients.set('later@example.org', 451)
    mail.refusedRecipients.set('nobody@example.org', 550)
    await queue([anEmail('later@example.org', { batchId: 'b' }), anEmail('nobody@example.org', { batchId: 'b' })])

    expect(await sendDueEmails()).toMatchObject({ finished: 0, retried: 1, gaveUp: 1 })
    expect(await batchProgress('b')).toEqual({ sent: 0, waiting: 1, failed: 1 })

    mail.refusedRecipients.clear()
    expect(await sendDueEmails({ now: inAnHour() })).toMatchObject({ finished: 1 })
    expect(mail.mails.map((m) => m.recipients)).toEqual([['later@example.org']])
    expect(await batchProgress('b')).toEqual({ sent: 1, waiting: 0, failed: 1 })
  })

  it('keeps e-mails waiting while the mail server is down', async () => {
    await mail.stop()
    await queue([anEmail('ann@example.org', { batchId: 'b' })])
    expect(await sendDueEmails()).toMatchObject({ retried: 1 })
    await mail.start()
    expect(await sendDueEmails({ now: inAnHour() })).toMatchObject({ finished: 1 })
    expect(mail.mails).toHaveLength(1)
  })

  it('paces the sending', async () => {
    env.OUTGOING_EMAILS_PER_SECOND = 10
    await queue(['a', 'b', 'c', 'd', 'e'].map((name) => anEmail(`${name}@example.org`)))
    const started = Date.now()
    await sendDueEmails()
    expect(mail.mails).toHaveLength(5)
    expect(Date.now() - started).toBeGreaterThanOrEqual(390)
  })

  it('refuses, queuing nothing, what would pass the cap on waiting e-mails', async () => {
    env.OUTGOING_EMAILS_MAX_WAITING = 3
    await queue([anEmail('a@example.org'), anEmail('b@example.org')])
    const refused = queue([anEmail('c@example.org'), anEmail('d@example.org')])
    await expect(refused).rejects.toThrow(OutgoingMailQuotaError)
    await expect(refused).rejects.toThrow(OUTGOING_MAIL_MESSAGES.queueFull)
    expect(await db.selectFrom('outgoingEmails').select('id').execute()).toHaveLength(2)
  })

  it('keeps visitor-caused e-mail to a tenth of the cap, so mailings of administrators always have room', async () => {
    env.OUTGOING_EMAILS_MAX_WAITING = 20
    await queue([anEmail('a@example.org'), anEmail('b@example.org')], 'visitor')
    await expect(queue([anEmail('c@example.org')], 'visitor')).rejects.toThrow(OutgoingMailQuotaError)
    // The default is visitor mail.
    await expect(db.transaction().execute((trx) => queueEmails(trx, [anEmail('d@example.org')]))).rejects.toThrow(
      OutgoingMailQuotaError,
    )
    const mailing = Array.from({ length: 20 }, (_, i) => anEmail(`reader${i}@example.org`))
    expect(await queue(mailing, 'admin')).toBe(20)
    await expect(queue([anEmail('late@example.org')], 'admin')).rejects.toThrow(OutgoingMailQuotaError)
  })

  it('deletes sent and failed e-mails once they are older than the keeping time, never waiting ones', async () => {
    await queue([anEmail('old-sent@example.org'), anEmail('old-failed@example.org'), anEmail('waiting@example.org')])
    await queue([anEmail('recent@example.org')])
    const old = new Date(Date.now() - (KEEP_FINISHED_EMAILS_DAYS + 1) * 86_400_000).toISOString()
    await db
      .updateTable('outgoingEmails')
      .set({ status: 'sent', updatedAt: old })
      .where('toAddress', '=', 'old-sent@example.org')
      .execute()
    await db
      .updateTable('outgoingEmails')
      .set({ status: 'failed', updatedAt: old })
      .where('toAddress', '=', 'old-failed@example.org')
      .execute()
    await db.updateTable('outgoingEmails').set({ updatedAt: old }).where('toAddress', '=', 'waiting@example.org').execute()
    await db.updateTable('outgoingEmails').set({ status: 'sent' }).where('toAddress', '=', 'recent@example.org').execute()
    expect(await deleteOldFinishedEmails()).toBe(2)
    const left = await db.selectFrom('outgoingEmails').select('toAddress').orderBy('toAddress').execute()
    expect(left.map((row) => row.toAddress)).toEqual(['recent@example.org', 'waiting@example.org'])
  })

  it('removes every e-mail to an address', async () => {
    await queue([anEmail('Ann@example.org'), anEmail('bob@example.org')])
    await db.transaction().execute((trx) => removeEmailsTo(trx, 'ANN@example.org'))
    await sendDueEmails()
    expect(mail.mails.map((m) => m.recipients)).toEqual([['bob@example.org']])
  })

  it('never sends again an e-mail whose sender stopped while handing it over', async () => {
    await queue([anEmail('ann@example.org', { batchId: 'b' })])
    const past = new Date(Date.now() - 60_000).toISOString()
    await db
      .updateTable('outgoingEmails')
      .set({ status: 'sending', leaseToken: 'elsewhere/1/1/x', leaseExpiresAt: past, attempts: 1 })
      .execute()

    expect(await sendDueEmails({ now: inAnHour() })).toMatchObject({ finished: 0 })
    expect(await markInterruptedSends()).toBe(1)
    expect(await sendDueEmails({ now: inAnHour() })).toMatchObject({ finished: 0 })
    expect(mail.mails).toHaveLength(0)
    expect(await batchProgress('b')).toEqual({ sent: 0, waiting: 0, failed: 1 })
    const row = await db.selectFrom('outgoingEmails').select('lastError').executeTakeFirstOrThrow()
    expect(row.lastError).toBe(INTERRUPTED_SEND)
  })
})
