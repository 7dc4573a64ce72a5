import { afterEach, describe, expect, it } from 'vitest'
import { aMessage } from '../../../tests/fixtures/contact-message'
import { db } from '~/platform/db.server'
import { env } from '~/platform/env.server'
import { ContactSchema } from './contact.schema'
import { deliveryIdle } from './inbox.delivery.server'
import { ADMIN_LIST_PAGE_SIZE } from '~/platform/admin-list-page.server'
import { countUnreadContactMessages, getContactMessageForAdmin, listContactMessagesForAdmin } from './inbox.queries.server'
import {
  CONTACT_RATE_LIMIT,
  deleteContactMessage,
  markContactMessageRead,
  receiveContactMessage,
  setContactMessageHandled,
  storeContactMessage,
} from './inbox.service.server'

const original = { SMTP_URL: env.SMTP_URL, CONTACT_FORWARD_URL: env.CONTACT_FORWARD_URL }
afterEach(async () => {
  await deliveryIdle()
  Object.assign(env, original)
})

async function countRows() {
  const messages = await db
    .selectFrom('contactMessages')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow()
  const deliveries = await db
    .selectFrom('contactDeliveries')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow()
  return { messages: Number(messages.n), deliveries: Number(deliveries.n) }
}

describe('the contact form schema', () => {
  function parse(values: Record<string, string>) {
    return ContactSchema.safeParse(values)
  }

  it('requires name, e-mail, subject and message, with a message for each', () => {
    const result = parse({})
    expect(result.success).toBe(false)
    const messages = Object.fromEntries(result.error!.issues.map((i) => [i.path.join('.'), i.message]))
    expect(messages).toEqual({
      name: 'Please enter your name',
      email: 'Please enter your e-mail address',
      subject: 'Please choose a subject',
      message: 'Please enter your message',
    })
  })

  it('rejects a malformed e-mail address and an unknown subject', () => {
    const result = parse({ ...aMessage(), email: 'grace@', subject: 'sales' } as Record<string, string>)
    const messages = Object.fromEntries(result.error!.issues.map((i) => [i.path.join('.'), i.message]))
    expect(messages).toEqual({ email: 'Please enter a valid e-mail address', subject: 'Please choose a subject' })
  })

  it('accepts a message without a phone number', () => {
    const { phone: _phone, ...withoutPhone } = aMessage()
    const result = parse(withoutPhone as Record<string, string>)
    expect(result.success).toBe(true)
    expect(result.data!.phone).toBeUndefined()
  })

  it('turns line breaks in the name into spaces, so it can never start a new mail header', () => {
    const result = parse({ ...aMessage(), name: 'Eve\r\nBcc: victim@example.com' } as Record<string, string>)
    expect(result.data!.name).toBe('Eve Bcc: victim@example.com')
  })

  it('refuses overly long fields', () => {
    const result = parse({ ...aMessage(), name: 'x'.repeat(101), message: 'y'.repeat(5001) } as Record<string, string>)
    expect(result.error!.issues.map((i) => i.path[0])).toEqual(['name', 'message'])
  })
})

describe('receiving a contact message', () => {
  it('stores the message with one pending delivery per configured channel', async () => {
    env.SMTP_URL = 'smtp://127.0.0.1:9' // nothing listens: the delivery stays queued
    env.CONTACT_FORWARD_URL = 'http://127.0.0.1:9/forms'
    const received = await receiveContactMessage(aMessage(), { clientKey: '203.0.113.1' })
    expect(received.outcome).toBe('stored')
    await deliveryIdle()

    const message = await getContactMessageForAdmin((received as { messageId: string }).messageId)
    expect(message).toMatchObject({ name: 'Grace Joseph', email: 'grace@example.com', subject: 'volunteer', readAt: null })
    expect(message!.deliveries.map((d) => d.channel)).toEqual(['email', 'forward'])
    for (const delivery of message!.deliveries) {
      expect(delivery.status).toBe('failed')
      expect(delivery.attempts).toBe(1)
      expect(delivery.nextAttemptAt).not.toBeNull()
    }
  })

  it('stores the message without deliveries when neither mail nor forwarding is configured', async () => {
    env.SMTP_URL = undefined
    env.CONTACT_FORWARD_URL = undefined
    const received = await receiveContactMessage(aMessage(), { clientKey: '203.0.113.2' })
    expect(received.outcome).toBe('stored')
    expect(await countRows()).toEqual({ messages: 1, deliveries: 0 })
  })

  it('stores nothing when the honeypot is filled, but reports it like a success', async () => {
    const received = await receiveContactMessage(aMessage({ website: 'http://spam.example' }), { clientKey: '203.0.113.3' })
    expect(received).toEqual({ outcome: 'discarded' })
    expect(await countRows()).toEqual({ messages: 0, deliveries: 0 })
  })

  it('refuses messages over the per-client limit and stores none of them', async () => {
    for (let i = 0; i < CONTACT_RATE_LIMIT.attempts; i++) {
      expect((await receiveContactMessage(aMessage(), { clientKey: '203.0.113.4' })).outcome).toBe('stored')
    }
    const refused = await receiveContactMessage(aMessage(), { clientKey: '203.0.113.4' })
    expect(refused).toMatchObject({ outcome: 'rate-limited' })
    expect((refused as { retryAfterSeconds: number }).retryAfterSeconds).toBeGreaterThan(0)
    expect((await countRows()).messages).toBe(CONTACT_RATE_LIMIT.attempts)

    // Another client is not affected.
    expect((await receiveContactMessage(aMessage(), { clientKey: '203.0.113.5' })).outcome).toBe('stored')
  })

  it('stores the message and its deliveries together or not at all', async () => {
    // A duplicate channel breaks the unique (message, channel) rule inside the transaction.
    await expect(storeContactMessage(aMessage(), ['email', 'email'])).rejects.toThrow()
    expect(await countRows()).toEqual({ messages: 0, deliveries: 0 })
  })
})

describe('the admin inbox', () => {
  it('lists newest first with the unread count, and opening a message marks it read', async () => {
    const first = await storeContactMessage(aMessage({ name: 'First' }), [])
    await new Promise((resolve) => setTimeout(resolve, 5))
    const second = await storeContactMessage(aMessage({ name: 'Second' }), ['forward'])

    const { messages, total } = await listContactMessagesForAdmin()
    expect(total).toBe(2)
    expect(messages.map((m) => m.name)).toEqual(['Second', 'First'])
    expect(messages[0].deliveries).toMatchObject([{ channel: 'forward', status: 'pending', attempts: 0 }])
    expect(await countUnreadContactMessages()).toBe(2)

    await markContactMessageRead(first)
    const readAt = (await getContactMessageForAdmin(first))!.readAt
    expect(readAt).not.toBeNull()
    await markContactMessageRead(first) // opening it again keeps the first time
    expect((await getContactMessageForAdmin(first))!.readAt).toBe(readAt)
    expect(await countUnreadContactMessages()).toBe(1)

    expect(await setContactMessageHandled(second, true)).toBe(true)
    expect((await getContactMessageForAdmin(second))!.handledAt).not.toBeNull()
    expect(await setContactMessageHandled(second, false)).toBe(true)
    expect((await getContactMessageForAdmin(second))!.handledAt).toBeNull()
  })

  it('pages through a long inbox', async () => {
    for (let i = 0; i <= ADMIN_LIST_PAGE_SIZE; i++) await storeContactMessage(aMessage({ name: `Sender ${i}` }), [])
    const first = await listContactMessagesForAdmin({ page: 1 })
    const second = await listContactMessagesForAdmin({ page: 2 })
    expect(first.total).toBe(ADMIN_LIST_PAGE_SIZE + 1)
    expect(first.messages).toHaveLength(ADMIN_LIST_PAGE_SIZE)
    expect(second.messages).toHaveLength(1)
    expect(new Set([...first.messages, ...second.messages].map((m) => m.id)).size).toBe(ADMIN_LIST_PAGE_SIZE + 1)
  })

  it('deletes a message together with its deliveries', async () => {
    const id = await storeContactMessage(aMessage(), ['email', 'forward'])
    expect(await deleteContactMessage(id)).toBe(true)
    expect(await getContactMessageForAdmin(id)).toBeNull()
    expect(await countRows()).toEqual({ messages: 0, deliveries: 0 })
    expect(await deleteContactMessage(id)).toBe(false)
  })
})
