import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { db, dialectName } from '~/platform/db.server'

/**
 * The page cache serves a page until the content version changes, and only the triggers of
 * migration 0028 (and of any later migration) renew it. A table a public page reads without such
 * triggers would leave visitors an old page, so every table of the schema is either renewing the
 * version on each insert, update and delete, or named here with the reason no public page reads it.
 */
const NOT_SHOWN_ON_PUBLIC_PAGES: Record<string, string> = {
  account_links: 'password reset and invitation links, read by their own pages only',
  audit_events: 'the audit log, seen by administrators only',
  authenticator_apps: 'two-step sign-in secrets',
  contact_deliveries: "the contact form's delivery queue",
  contact_messages: "the administrators' inbox",
  event_signups: 'who signed up: the public page shows places left, read uncached',
  repeated_signups: 'sign-ups repeated with a contact already on the date: shown only on their own private page',
  legacy_imports: "the old site's import bookkeeping",
  outgoing_emails: 'the mail queue',
  passkey_challenges: 'passkey sign-in challenges',
  passkeys: 'passkeys of accounts',
  pending_sign_ins: 'sign-ins waiting for their second step',
  preview_links: 'preview links, whose pages are never cached',
  rate_limits: 'counters of the rate limits',
  recovery_codes: 'two-step recovery codes',
  sessions: 'sessions of signed-in people, whose pages are never cached',
  subscribers: 'newsletter subscribers, seen by administrators only',
  upload_locks: 'locks of resumable uploads',
  upload_starts: 'the upload quota',
  uploads: 'files being uploaded',
  users: 'accounts (no public page names an author)',
}

const EVENTS = ['insert', 'update', 'delete'] as const

async function tableNames(): Promise<string[]> {
  const rows =
    dialectName === 'postgres'
      ? (await sql<{ name: string }>`select tablename as name from pg_tables where schemaname = current_schema()`.execute(db))
          .rows
      : (
          await sql<{
            name: string
          }>`select name from sqlite_master where type = 'table' and sql not like 'create virtual table%' collate nocase`.execute(
            db,
          )
        ).rows
  return (
    rows
      .map((row) => row.name)
      .filter((name) => !name.startsWith('kysely_') && !name.startsWith('sqlite_'))
      // SQLite's full-text index keeps its words in shadow tables of its own, filled from the tables above.
      .filter((name) => !name.startsWith('search_index'))
      .sort()
  )
}

async function triggerNames(): Promise<Set<string>> {
  const rows =
    dialectName === 'postgres'
      ? (
          await sql<{ name: string }>`select t.tgname as name from pg_trigger t join pg_class c on c.oid = t.tgrelid
            where not t.tgisinternal and c.relnamespace = current_schema()::regnamespace`.execute(db)
        ).rows
      : (await sql<{ name: string }>`select name from sqlite_master where type = 'trigger'`.execute(db)).rows
  return new Set(rows.map((row) => row.name))
}

describe('every table of the schema', () => {
  it('renews the content version on every change, or is named as shown on no public page', async () => {
    const [tables, triggers] = await Promise.all([tableNames(), triggerNames()])
    expect(tables).toContain('articles')
    const unaccounted = tables.filter(
      (table) =>
        !(table in NOT_SHOWN_ON_PUBLIC_PAGES) && !EVENTS.every((event) => triggers.has(`${table}_content_changed_${event}`)),
    )
    expect(unaccounted, 'tables a public page may read that renew no content version').toEqual([])
  })

  it('has no table named as not shown that is really renewing the content version, or gone', async () => {
    const [tables, triggers] = await Promise.all([tableNames(), triggerNames()])
    const stale = Object.keys(NOT_SHOWN_ON_PUBLIC_PAGES).filter(
      (table) => !tables.includes(table) || EVENTS.some((event) => triggers.has(`${table}_content_changed_${event}`)),
    )
    expect(stale).toEqual([])
  })
})
