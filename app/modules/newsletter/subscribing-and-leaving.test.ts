import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { DEMO_SITE_SETTINGS } from '~/modules/settings/settings.demo'
import { saveSiteSettings } from '~/modules/settings/settings.service.server'
import { db } from '~/platform/db.server'
import { env } from '~/platform/env.server'
import { outgoingMailIdle } from '~/modules/outgoing-mail/outgoing-mail.delivery.server'
import { queueEmails } from '~/modules/outgoing-mail/outgoing-mail.server'
import { confirmSubscription, deleteSubscriber, importSubscribers, subscribe, unsubscribe } from './newsletter.service.server'
import { readSubscriberImport } from './subscriber-import'

const ORIGIN = 'https://charity.example'
let client = 0

beforeEach(async () => {
  await saveSiteSettings({ ...DEMO_SITE_SETTINGS, email: 'office@charity.example' }, { actor: { id: 'test' } })
})

afterEach(() => {
  vi.useRealTimers()
})

function signUp(email: string, topics: ('news' | 'events' | 'marketplace')[] = ['news']) {
  client++
  return subscribe({ email, firstName: '', topics }, { clientKey: `192.0.2.${client}`, origin: ORIGIN })
}

async function queuedTo(address: string) {
  return db.selectFrom('outgoingEmails').select(['subject', 'textBody']).where('toAddress', '=', address).execute()
}

function secretIn(text: string, kind: string): string {
  return text.match(new RegExp(`/subscribe/${kind}/([\\w-]+)`))![1]
}

describe('subscribing', () => {
  it('queues only a confirmation; the link confirms once; unsubscribing drops mail still waiting', async () => {
    expect(await signUp('Ann@Example.org')).toEqual({ outcome: 'accepted' })
    const [confirmation] = await queuedTo('ann@example.org')
    expect(confirmation.subject).toBe('Please confirm your subscription')
    const secret = secretIn(confirmation.textBody, 'confirm')
    expect(await confirmSubscription('wrong')).toBe('unusable')
    expect(await confirmSubscription(secret)).toBe('confirmed')
    expect(await confirmSubscription(secret)).toBe('already-confirmed')

    // An event's reminder to the same address is no e-mail update: unsubscribing leaves it.
    const reminder = {
      to: 'ann@example.org',
      subject: 'Tomorrow',
      html: '<p>Tomorrow</p>',
      text: 'Tomorrow',
      dedupeKey: 'reminder:1',
    }
    await db.transaction().execute((trx) => queueEmails(trx, [reminder]))
    const { manageSecret } = await db.selectFrom('subscribers').select('manageSecret').executeTakeFirstOrThrow()
    // The pass started by the sign-up holds the confirmation while it tries it: let it give it back first.
    await outgoingMailIdle()
    expect(await unsubscribe(manageSecret)).toBe(true)
    expect(await db.selectFrom('subscribers').select('state').executeTakeFirstOrThrow()).toEqual({ state: 'unsubscribed' })
    // The confirmation had not gone out yet: it is dropped.
    expect(await queuedTo('ann@example.org')).toEqual([{ subject: 'Tomorrow', textBody: 'Tomorrow' }])
  })

  it('sends an address at most 3 invitations a week, without the first name typed in the form', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    for (let hour = 0; hour < 5; hour++) {
      vi.setSystemTime(Date.now() + 61 * 60_000)
      client++
      const answer = await subscribe(
        { email: 'target@example.org', firstName: 'Click evil.example now', topics: ['news'] },
        { clientKey: `198.51.100.${client}`, origin: ORIGIN },
      )
      expect(answer).toEqual({ outcome: 'accepted' })
    }
    const sent = await queuedTo('target@example.org')
    expect(sent).toHaveLength(3)
    expect(sent.map((e) => e.textBody).join('')).not.toContain('evil')
  })

  it('takes the same new address sent twice at once as one sign-up', async () => {
    const answers = await Promise.all([signUp('twice@example.org'), signUp('twice@example.org'), signUp('twice@example.org')])
    expect(answers).toEqual([{ outcome: 'accepted' }, { outcome: 'accepted' }, { outcome: 'accepted' }])
    expect(await db.selectFrom('subscribers').select('email').execute()).toEqual([{ email: 'twice@example.org' }])
    expect(await queuedTo('twice@example.org')).toHaveLength(1)
  })

  it('gives a former subscriber two fresh days to confirm, and refuses an invitation past them', async () => {
    const longAgo = new Date(Date.now() - 30 * 86_400_000).toISOString()
    await signUp('ann@example.org')
    const { manageSecret } = await db.selectFrom('subscribers').select('manageSecret').executeTakeFirstOrThrow()
    await unsubscribe(manageSecret)
    await db.updateTable('subscribers').set({ createdAt: longAgo, pendingSince: longAgo }).execute()
    await db.deleteFrom('outgoingEmails').execute()

    await signUp('ann@example.org')
    await signUp('bob@example.org') // its clean-up of expired invitations leaves Ann's new one
    const [invitation] = await queuedTo('ann@example.org')
    expect(await confirmSubscription(secretIn(invitation.textBody, 'confirm'))).toBe('confirmed')

    const [bobs] = await queuedTo('bob@example.org')
    const pastTwoDays = new Date(Date.now() - 2 * 86_400_000 - 60_000).toISOString()
    await db.updateTable('subscribers').set({ pendingSince: pastTwoDays }).where('email', '=', 'bob@example.org').execute()
    expect(await confirmSubscription(secretIn(bobs.textBody, 'confirm'))).toBe('unusable')
  })

  it('answers a full list like a sign-up, storing and queuing nothing; only confirmed people fill the list', async () => {
    const original = env.SUBSCRIBERS_MAX
    env.SUBSCRIBERS_MAX = 10 // one invitation may wait at a time
    const emails = async () => (await db.selectFrom('subscribers').select('email').orderBy('email').execute()).map((r) => r.email)
    try {
      expect(await signUp('a@example.org')).toEqual({ outcome: 'accepted' })
      expect(await signUp('b@example.org')).toEqual({ outcome: 'accepted' })
      expect(await emails()).toEqual(['a@example.org'])
      expect(await queuedTo('b@example.org')).toEqual([])

      const [invitation] = await queuedTo('a@example.org')
      expect(await confirmSubscription(secretIn(invitation.textBody, 'confirm'))).toBe('confirmed')
      expect(await signUp('c@example.org')).toEqual({ outcome: 'accepted' })
      expect(await emails()).toEqual(['a@example.org', 'c@example.org'])

      env.SUBSCRIBERS_MAX = 1 // full of confirmed subscribers
      expect(await signUp('d@example.org')).toEqual({ outcome: 'accepted' })
      expect(await emails()).toEqual(['a@example.org', 'c@example.org'])
      const [cs] = await queuedTo('c@example.org')
      expect(await confirmSubscription(secretIn(cs.textBody, 'confirm'))).toBe('full')
    } finally {
      env.SUBSCRIBERS_MAX = original
    }
  })

  it('keeps room among the invitations waiting: one domain takes a tenth of it, one client thirty a day', async () => {
    const original = env.SUBSCRIBERS_MAX
    env.SUBSCRIBERS_MAX = 1000 // 100 invitations may wait, 10 of them for one domain
    const waitingFor = async (domain: string) =>
      (await db.selectFrom('subscribers').select('email').where('email', 'like', `%@${domain}`).execute()).length
    try {
      for (let n = 0; n < 12; n++) expect(await signUp(`made-up-${n}@junk.example`)).toEqual({ outcome: 'accepted' })
      expect(await waitingFor('junk.example')).toBe(10)
      expect(await queuedTo('made-up-11@junk.example')).toEqual([])
      // A real person of another domain still gets in.
      expect(await signUp('real.person@example.net')).toEqual({ outcome: 'accepted' })
      expect(await waitingFor('example.net')).toBe(1)
      // An address that merely ends like the domain is another domain.
      expect(await signUp('someone@notjunk.example')).toEqual({ outcome: 'accepted' })
      expect(await waitingFor('notjunk.example')).toBe(1)

      const fromOneClient = (n: number) =>
        subscribe(
          { email: `person${n}@client.example`, firstName: '', topics: ['news'] },
          { clientKey: '198.51.100.77', origin: ORIGIN },
        )
      const outcomes: string[] = []
      for (let n = 0; n < 31; n++) {
        if (n % 10 === 0) await db.deleteFrom('rateLimits').where('key', 'like', 'newsletter-signup:%').execute()
        outcomes.push((await fromOneClient(n)).outcome)
      }
      expect(outcomes.slice(0, 30).every((outcome) => outcome === 'accepted')).toBe(true)
      expect(outcomes[30]).toBe('rate-limited')
    } finally {
      env.SUBSCRIBERS_MAX = original
    }
  })

  it('imports a CSV as invitations, leaving people already listed as they are, and deletes a person with their mail', async () => {
    await signUp('ann@example.org')
    const { people, problems } = readSubscriberImport(
      'email,first name,topics\nann@example.org,Ann,news\nbob@example.org,Bob,events marketplace\n',
    )
    expect(problems).toEqual([])
    expect(await importSubscribers(people, ORIGIN)).toEqual({ invited: 1, skipped: 1 })
    const bob = await db
      .selectFrom('subscribers')
      .select(['id', 'topics', 'state'])
      .where('email', '=', 'bob@example.org')
      .executeTakeFirstOrThrow()
    expect(bob).toMatchObject({ topics: 'events,marketplace', state: 'pending' })
    expect(await queuedTo('bob@example.org')).toHaveLength(1)

    expect(await deleteSubscriber(bob.id)).toBe(true)
    expect(await queuedTo('bob@example.org')).toEqual([])
    expect(await db.selectFrom('subscribers').select('email').where('email', '=', 'bob@example.org').execute()).toEqual([])
  })

  it('names each unreadable row of an import', () => {
    const { people, problems } = readSubscriberImport('email\nnot-an-address,Ann\nbob@example.org,,weather\n')
    expect(people).toEqual([])
    expect(problems).toHaveLength(2)
    expect(problems[0]).toMatch(/^Row 1: Please enter a valid e-mail address/)
  })
})
