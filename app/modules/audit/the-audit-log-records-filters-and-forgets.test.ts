import { describe, expect, it } from 'vitest'
import { db } from '~/platform/db.server'
import { ADMIN_LIST_PAGE_SIZE } from '~/platform/admin-list-page.server'
import { listAuditActors, listAuditEventsForAdmin } from './audit.queries.server'
import {
  AUDIT_POLICY,
  deleteExpiredAuditEvents,
  FROM_COMMAND_LINE,
  recordAuditEvent,
  type AuditSource,
} from './audit.service.server'

const alice: AuditSource = { actor: { id: 'u-alice', email: 'alice@example.org', name: 'Alice' }, clientAddress: '203.0.113.7' }
const bob: AuditSource = { actor: { id: 'u-bob', email: 'bob@example.org', name: 'Bob' }, clientAddress: '2001:db8::1' }

/** Moves every entry of one action to the given instant. */
async function backdate(action: string, at: string) {
  await db.updateTable('auditEvents').set({ at }).where('action', '=', action).execute()
}

describe('the audit log', () => {
  it('keeps who did what to which thing, when and from where, also after the actor is gone', async () => {
    await recordAuditEvent({ by: alice, action: 'article.deleted', target: { type: 'article', id: 'a1', label: 'Food drive' } })
    await new Promise((resolve) => setTimeout(resolve, 5)) // one after the other, not in the same millisecond
    await recordAuditEvent({ by: FROM_COMMAND_LINE, action: 'import', detail: { imported: 3, skipped: 1 } })
    const { events, total } = await listAuditEventsForAdmin({})
    expect(total).toBe(2)
    const [imported, deleted] = events
    expect(deleted).toMatchObject({
      actorUserId: 'u-alice',
      actorEmail: 'alice@example.org',
      actorName: 'Alice',
      action: 'article.deleted',
      targetType: 'article',
      targetId: 'a1',
      targetLabel: 'Food drive',
      clientAddress: '203.0.113.7',
      detail: null,
    })
    expect(Date.now() - Date.parse(deleted.at)).toBeLessThan(60_000)
    expect(imported).toMatchObject({ actorUserId: null, clientAddress: 'command line', detail: { imported: 3, skipped: 1 } })
  })

  it('never fails the action it records: an entry that cannot be written is left out', async () => {
    const tooLong = { by: alice, action: 'settings.changed' as const, detail: { note: 'x'.repeat(AUDIT_POLICY.maxDetailChars) } }
    await recordAuditEvent(tooLong)
    expect((await listAuditEventsForAdmin({})).events[0]).toMatchObject({ action: 'settings.changed', detail: null })
    // A write the database refuses (a NOT NULL column) resolves all the same.
    await expect(
      recordAuditEvent({ by: { ...alice, clientAddress: null as unknown as string }, action: 'sign-in' }),
    ).resolves.toBeUndefined()
    expect((await listAuditEventsForAdmin({ action: 'sign-in' })).total).toBe(0)
  })

  it('filters by who, by what and by time, newest first, one page at a time', async () => {
    await recordAuditEvent({ by: alice, action: 'sign-in' })
    await recordAuditEvent({ by: bob, action: 'sign-in' })
    await recordAuditEvent({
      by: { actor: { id: null, email: 'alice@example.org', name: '' }, clientAddress: '198.51.100.2' },
      action: 'sign-in-failed',
    })
    await recordAuditEvent({ by: bob, action: 'product.created', target: { type: 'product', id: 'p1', label: 'Bracelet' } })
    await backdate('sign-in', '2026-01-10T12:00:00.000Z')
    await backdate('sign-in-failed', '2026-01-11T12:00:00.000Z')
    await backdate('product.created', '2026-01-12T12:00:00.000Z')

    const byAlice = await listAuditEventsForAdmin({ actorEmail: 'alice@example.org' })
    expect(byAlice.events.map((e) => e.action)).toEqual(['sign-in-failed', 'sign-in'])
    expect((await listAuditEventsForAdmin({ action: 'sign-in' })).events.map((e) => e.actorName).sort()).toEqual(['Alice', 'Bob'])
    const window = await listAuditEventsForAdmin({ from: '2026-01-11T00:00:00.000Z', before: '2026-01-12T12:00:00.000Z' })
    expect(window.events.map((e) => e.action)).toEqual(['sign-in-failed'])
    expect((await listAuditEventsForAdmin({ actorEmail: 'bob@example.org', action: 'product.created' })).total).toBe(1)

    // Only people who did something are offered as "who", not e-mails typed at the sign-in form.
    expect(await listAuditActors()).toEqual([
      { email: 'alice@example.org', name: 'Alice' },
      { email: 'bob@example.org', name: 'Bob' },
    ])

    for (let i = 0; i < ADMIN_LIST_PAGE_SIZE; i++) await recordAuditEvent({ by: bob, action: 'settings.changed' })
    const first = await listAuditEventsForAdmin({}, { page: 1 })
    const second = await listAuditEventsForAdmin({}, { page: 2 })
    expect(first.total).toBe(ADMIN_LIST_PAGE_SIZE + 4)
    expect(first.events).toHaveLength(ADMIN_LIST_PAGE_SIZE)
    expect(second.events.map((e) => e.action)).toEqual(['product.created', 'sign-in-failed', 'sign-in', 'sign-in'])
  })

  it('forgets entries older than the retention period, and only those', async () => {
    await recordAuditEvent({ by: alice, action: 'sign-in' })
    await recordAuditEvent({ by: alice, action: 'settings.changed' })
    await backdate('sign-in', '2025-01-01T00:00:00.000Z')
    await backdate('settings.changed', '2025-12-31T00:00:00.000Z')
    const now = new Date('2026-01-10T00:00:00.000Z')
    expect(await deleteExpiredAuditEvents(now, 30)).toBe(1)
    expect((await listAuditEventsForAdmin({})).events.map((e) => e.action)).toEqual(['settings.changed'])
    expect(await deleteExpiredAuditEvents(now, 30)).toBe(0)
    expect(await deleteExpiredAuditEvents(now, 1)).toBe(1)
  })
})
