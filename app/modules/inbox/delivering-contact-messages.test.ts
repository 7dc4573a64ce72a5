import { execFile } from 'node:child_process'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { aMessage } from '../../../tests/fixtures/contact-message'
import { MailCatcher } from '../../../tests/fixtures/mail-catcher'
import { DEMO_SITE_SETTINGS } from '~/modules/settings/settings.demo'
import { saveSiteSettings } from '~/modules/settings/settings.service.server'
import { db } from '~/platform/db.server'
import { env } from '~/platform/env.server'
import { DELIVERY_POLICY, deliverDueMessages, deliveryIdle, requestDeliveryRun, retryDelayMs } from './inbox.delivery.server'
import { getContactMessageForAdmin } from './inbox.queries.server'
import { receiveContactMessage, retryFailedDeliveries, storeContactMessage } from './inbox.service.server'

const SITE_EMAIL = 'office@charity.example'
const original = { SMTP_URL: env.SMTP_URL, SMTP_FROM: env.SMTP_FROM, CONTACT_FORWARD_URL: env.CONTACT_FORWARD_URL }

let mail: MailCatcher

beforeEach(async () => {
  await saveSiteSettings({ ...DEMO_SITE_SETTINGS, email: SITE_EMAIL }, { actor: { id: 'test' } })
  mail = new MailCatcher()
  await mail.start()
  Object.assign(env, { SMTP_URL: mail.url, SMTP_FROM: undefined, CONTACT_FORWARD_URL: undefined })
})

afterEach(async () => {
  await deliveryIdle()
  await mail.stop()
  Object.assign(env, original)
})

function minutesFromNow(minutes: number): Date {
  return new Date(Date.now() + minutes * 60_000)
}

/** A delivery pass in a separate Node process on the same database, like a second app server. */
function runWorkerProcess(): Promise<{ sent: number; failed: number }> {
  return new Promise((resolve, reject) => {
    execFile(
      path.resolve('node_modules/.bin/tsx'),
      ['tests/fixtures/run-delivery-worker.ts'],
      { env: { ...process.env, SMTP_URL: env.SMTP_URL, LOG_LEVEL: 'silent' } },
      (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(JSON.parse(stdout))),
    )
  })
}

async function deliveryOf(messageId: string, channel: 'email' | 'forward') {
  const message = await getContactMessageForAdmin(messageId)
  return message?.deliveries.find((d) => d.channel === channel)
}

describe('e-mailing contact messages', () => {
  it('keeps a message when the mail server is down and delivers it exactly once when it returns', async () => {
    await mail.stop()
    const id = await storeContactMessage(aMessage())

    expect(await deliverDueMessages()).toEqual({ sent: 0, failed: 1, more: false })
    const failed = await deliveryOf(id, 'email')
    expect(failed).toMatchObject({ status: 'failed', attempts: 1, deliveredAt: null })
    expect(failed!.lastError).toMatch(/ECONNREFUSED|connect/i)
    const retryAt = new Date(failed!.nextAttemptAt!).getTime()
    expect(retryAt).toBeGreaterThan(Date.now() + 30_000)
    expect(retryAt).toBeLessThanOrEqual(Date.now() + DELIVERY_POLICY.firstRetryMs)
    expect((await getContactMessageForAdmin(id))!.message).toBe(aMessage().message)

    // Not due yet: nothing is attempted before the scheduled time.
    expect(await deliverDueMessages()).toEqual({ sent: 0, failed: 0, more: false })

    await mail.start() // same port
    const later = minutesFromNow(2)
    const runs = await Promise.all([deliverDueMessages({ now: later }), deliverDueMessages({ now: later })])
    expect(runs.reduce((sum, r) => sum + r.sent, 0)).toBe(1)
    expect(await deliverDueMessages({ now: minutesFromNow(600) })).toEqual({ sent: 0, failed: 0, more: false })

    expect(mail.mails).toHaveLength(1)
    const [received] = mail.mails
    expect(received.recipients).toEqual([SITE_EMAIL])
    expect(received.parsed.replyTo?.value).toEqual([{ name: 'Grace Joseph', address: 'grace@example.com' }])
    expect(received.parsed.subject).toBe('Contact form: Volunteering from Grace Joseph')
    expect(received.parsed.text).toContain('I would like to help at the next distribution.\nI can drive.')
    expect(received.parsed.text).toContain('Phone: +1 268 555 0199')
    expect(received.parsed.messageId).toBe(`<contact-${id}@localhost>`)

    const sent = await deliveryOf(id, 'email')
    expect(sent).toMatchObject({ status: 'sent', attempts: 2, lastError: null, nextAttemptAt: null })
    expect(sent!.deliveredAt).not.toBeNull()
  })

  it('never sends a message twice when several processes deliver at the same time', async () => {
    const ids = await Promise.all([1, 2, 3, 4, 5].map((n) => storeContactMessage(aMessage({ name: `Sender ${n}` }))))
    const summaries = await Promise.all([1, 2, 3].map(() => runWorkerProcess()))
    expect(summaries.reduce((sum, s) => sum + s.sent, 0)).toBe(5)
    expect(mail.mails.map((m) => m.parsed.subject).sort()).toEqual(
      [1, 2, 3, 4, 5].map((n) => `Contact form: Volunteering from Sender ${n}`),
    )
    for (const id of ids) expect((await deliveryOf(id, 'email'))!.status).toBe('sent')
  }, 60_000) // three Node processes start up

  it('sends right after a message is received, without the sender waiting for it', async () => {
    const received = await receiveContactMessage(aMessage(), { clientKey: '198.51.100.1' })
    expect(received.outcome).toBe('stored')
    await deliveryIdle()
    expect(mail.mails).toHaveLength(1)
    expect((await deliveryOf((received as { messageId: string }).messageId, 'email'))!.status).toBe('sent')
  })

  it('sends a burst larger than one batch in one background run, not one batch per timer tick', async () => {
    const count = DELIVERY_POLICY.batchSize + 5
    for (let i = 0; i < count; i++) await storeContactMessage(aMessage())
    requestDeliveryRun()
    await deliveryIdle()
    expect(mail.mails).toHaveLength(count)
  })

  it('never lets a line break in the name or e-mail add a header or a recipient', async () => {
    // Straight to storage, past the form's own clean-up, to prove the mail layer holds by itself.
    const id = await storeContactMessage(
      aMessage({ name: 'Eve\r\nBcc: victim@example.com', email: 'eve@example.com\r\nCc: other@example.com' }),
    )
    await deliverDueMessages()
    expect(mail.mails).toHaveLength(1)
    const [received] = mail.mails
    expect(received.recipients).toEqual([SITE_EMAIL])
    const headerNames = received.parsed.headerLines.map((h) => h.key)
    expect(headerNames).not.toContain('bcc')
    expect(headerNames).not.toContain('cc')
    const rawHeaders = received.raw.split(/\r?\n\r?\n/)[0]
    expect(rawHeaders).not.toMatch(/^(bcc|cc):/im)
    expect(received.raw).not.toMatch(/^(bcc|cc):/im) // the body quotes them on one line too
    expect(received.parsed.replyTo?.value[0].name).toBe('Eve Bcc: victim@example.com')
    expect((await deliveryOf(id, 'email'))!.status).toBe('sent')
  })

  it('takes over a delivery whose sender crashed, once its lease has run out', async () => {
    const id = await storeContactMessage(aMessage())
    await db
      .updateTable('contactDeliveries')
      .set({ status: 'sending', attempts: 1, leaseToken: 'crashed-worker', leaseExpiresAt: minutesFromNow(5).toISOString() })
      .where('messageId', '=', id)
      .execute()

    expect(await deliverDueMessages()).toEqual({ sent: 0, failed: 0, more: false })
    expect(mail.mails).toHaveLength(0)

    expect(await deliverDueMessages({ now: minutesFromNow(6) })).toEqual({ sent: 1, failed: 0, more: false })
    expect(mail.mails).toHaveLength(1)
    expect(await deliveryOf(id, 'email')).toMatchObject({ status: 'sent', attempts: 2 })
  })

  it('backs off between attempts, gives up after the last one, and an admin can queue it again', async () => {
    expect([1, 2, 3].map(retryDelayMs)).toEqual([60_000, 120_000, 240_000])
    expect(retryDelayMs(30)).toBe(DELIVERY_POLICY.maxRetryMs)

    await mail.stop()
    const id = await storeContactMessage(aMessage())
    await db
      .updateTable('contactDeliveries')
      .set({ status: 'failed', attempts: DELIVERY_POLICY.maxAttempts - 1 })
      .where('messageId', '=', id)
      .execute()
    await deliverDueMessages()
    expect(await deliveryOf(id, 'email')).toMatchObject({
      status: 'failed',
      attempts: DELIVERY_POLICY.maxAttempts,
      nextAttemptAt: null,
    })
    expect(await deliverDueMessages({ now: minutesFromNow(60 * 24 * 30) })).toEqual({ sent: 0, failed: 0, more: false })

    await mail.start()
    expect(await retryFailedDeliveries(id)).toBe(1)
    await deliveryIdle()
    expect(mail.mails).toHaveLength(1)
    expect(await deliveryOf(id, 'email')).toMatchObject({ status: 'sent', attempts: 1 })
  })

  it('records a missing site e-mail address as a delivery failure to retry', async () => {
    await db.deleteFrom('settings').execute() // a fresh install: no settings saved at all
    const id = await storeContactMessage(aMessage())
    await deliverDueMessages()
    const delivery = await deliveryOf(id, 'email')
    expect(delivery).toMatchObject({ status: 'failed', lastError: 'The site settings have no e-mail address to deliver to' })
    expect(delivery!.nextAttemptAt).not.toBeNull()
  })
})

describe('a slow mail server', () => {
  // RFC 5321 (4.5.3.2) lets a server take up to ten minutes to accept a message after its data.
  const RFC_ACCEPT_LIMIT_MS = 10 * 60_000
  // The policy's durations are divided by this, so the test's minutes pass in milliseconds.
  const TIME_SCALE = 200
  let restorePolicy: () => void

  beforeEach(() => {
    const saved = { ...DELIVERY_POLICY }
    const durations = DELIVERY_POLICY as unknown as Record<string, number>
    for (const key of Object.keys(durations)) if (key.endsWith('Ms')) durations[key] /= TIME_SCALE
    // Except connecting: a server on this machine needs no scaling, and a busy machine needs more than 150 ms.
    durations.smtpConnectTimeoutMs = saved.smtpConnectTimeoutMs
    restorePolicy = () => Object.assign(DELIVERY_POLICY, saved)
  })

  afterEach(() => restorePolicy())

  /**
   * Three workers run delivery passes one after another, as the timers of three app processes
   * would, until no delivery is waiting or in flight. Each claim goes through the database, so
   * they race exactly as separate processes do.
   */
  async function deliverWithSeveralWorkers() {
    const started = Date.now()
    const totals = { sent: 0, failed: 0 }
    const unsettled = () =>
      db.selectFrom('contactDeliveries').select('id').where('status', 'in', ['pending', 'sending']).executeTakeFirst()
    await Promise.all(
      [1, 2, 3].map(async () => {
        while (await unsettled()) {
          const summary = await deliverDueMessages()
          totals.sent += summary.sent
          totals.failed += summary.failed
          await new Promise((resolve) => setTimeout(resolve, 20))
        }
      }),
    )
    return { ...totals, elapsedMs: Date.now() - started }
  }

  it('sends each message once and records it as sent when the server takes most of the time it may', async () => {
    mail.acceptDelayMs = (0.8 * RFC_ACCEPT_LIMIT_MS) / TIME_SCALE
    const ids = await Promise.all([1, 2, 3].map((n) => storeContactMessage(aMessage({ name: `Sender ${n}` }))))

    expect(await deliverWithSeveralWorkers()).toMatchObject({ sent: 3, failed: 0 })
    expect(mail.mails.map((m) => m.parsed.subject).sort()).toEqual(
      [1, 2, 3].map((n) => `Contact form: Volunteering from Sender ${n}`),
    )
    for (const id of ids) expect(await deliveryOf(id, 'email')).toMatchObject({ status: 'sent', attempts: 1, lastError: null })
  })

  it('gives up on a server that never accepts before the lease runs out, so nobody sends the message meanwhile', async () => {
    mail.acceptDelayMs = 2 * DELIVERY_POLICY.leaseMs
    const id = await storeContactMessage(aMessage())

    const { sent, failed, elapsedMs } = await deliverWithSeveralWorkers()
    expect({ sent, failed }).toEqual({ sent: 0, failed: 1 })
    expect(elapsedMs).toBeGreaterThanOrEqual(DELIVERY_POLICY.smtpReplyTimeoutMs)
    expect(elapsedMs).toBeLessThan(DELIVERY_POLICY.leaseMs)
    const delivery = await deliveryOf(id, 'email')
    expect(delivery).toMatchObject({ status: 'failed', attempts: 1 })
    expect(delivery!.lastError).toMatch(/timeout|abort/i)
  })
})

describe('forwarding contact messages to a form service', () => {
  let server: http.Server
  let requests: { method?: string; contentType?: string; body: unknown }[]
  let answer: { status: number; body: string }

  beforeEach(async () => {
    requests = []
    answer = { status: 200, body: '{"ok":true}' }
    server = http.createServer((req, res) => {
      let body = ''
      req.on('data', (chunk) => (body += chunk))
      req.on('end', () => {
        requests.push({ method: req.method, contentType: req.headers['content-type'], body: JSON.parse(body) })
        res.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body)
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    Object.assign(env, {
      SMTP_URL: undefined,
      CONTACT_FORWARD_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/f/contact`,
    })
  })

  afterEach(async () => {
    await deliveryIdle()
    await new Promise((resolve) => server.close(resolve))
  })

  it('POSTs the fields as JSON, retries after the service fails, and succeeds once', async () => {
    answer = { status: 500, body: '{"error":"Form service unavailable"}' }
    const id = await storeContactMessage(aMessage({ phone: undefined }))
    expect((await getContactMessageForAdmin(id))!.deliveries.map((d) => d.channel)).toEqual(['forward'])

    expect(await deliverDueMessages()).toEqual({ sent: 0, failed: 1, more: false })
    expect(await deliveryOf(id, 'forward')).toMatchObject({
      status: 'failed',
      lastError: 'Forwarding answered HTTP 500: Form service unavailable',
    })

    answer = { status: 200, body: '{"ok":true}' }
    const later = minutesFromNow(2)
    await Promise.all([deliverDueMessages({ now: later }), deliverDueMessages({ now: later })])
    await deliverDueMessages({ now: minutesFromNow(600) })

    expect(requests).toHaveLength(2)
    for (const request of requests) {
      expect(request.method).toBe('POST')
      expect(request.contentType).toBe('application/json')
      expect(request.body).toEqual({
        name: 'Grace Joseph',
        email: 'grace@example.com',
        phone: '',
        subject: 'volunteer',
        message: 'I would like to help at the next distribution.\nI can drive.',
      })
    }
    expect(await deliveryOf(id, 'forward')).toMatchObject({ status: 'sent', attempts: 2, lastError: null })
  })

  it('delivers on both channels independently when both are configured', async () => {
    Object.assign(env, { SMTP_URL: mail.url })
    answer = { status: 502, body: 'Bad gateway' }
    const id = await storeContactMessage(aMessage())
    expect(await deliverDueMessages()).toEqual({ sent: 1, failed: 1, more: false })
    expect(mail.mails).toHaveLength(1)
    expect(await deliveryOf(id, 'email')).toMatchObject({ status: 'sent' })
    expect(await deliveryOf(id, 'forward')).toMatchObject({
      status: 'failed',
      lastError: 'Forwarding answered HTTP 502: Bad gateway',
    })
  })
})
