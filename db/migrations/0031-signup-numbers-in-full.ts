import { sql, type Kysely } from 'kysely'

// As written by this migration's time: the settings row of the site, and the calling code a new site has.
const SITE_SETTINGS_KEY = 'site'
const DEFAULT_CALLING_CODE = '1268'

/**
 * Sign-ups kept a WhatsApp number as typed, less its punctuation: +12685550199, 2685550199 and
 * 5550199 were three contacts, though one person. Sign-ups now keep every number in full, as the
 * marketplace does (country code first, no '+'), so one number however it is typed is one contact;
 * the numbers already kept are written so here, in one transaction. Where two sign-ups of a date
 * then have the same number, the person signed up twice: the later one becomes a repeat, as the
 * form now takes it (decision 047), keeping its page and its link to cancel but holding no place.
 */
export async function up(db: Kysely<any>): Promise<void> {
  // On PostgreSQL the migration runs in a transaction already; on SQLite it is begun here.
  if (db.isTransaction) await writeInFull(db)
  else await db.transaction().execute(writeInFull)
}

interface KeptSignup {
  id: string
  eventId: string
  date: string
  whatsapp: string
  createdAt: string
}

async function writeInFull(db: Kysely<any>): Promise<void> {
  const siteCode = await siteCallingCode(db)
  const { rows } = await sql<KeptSignup>`
    select id, event_id as "eventId", date, whatsapp, created_at as "createdAt" from event_signups
    where whatsapp is not null order by created_at, id`.execute(db)
  for (const row of rows) {
    const full = inFull(row.whatsapp, siteCode)
    if (full === row.whatsapp) continue
    const { rows: same } = await sql<{ id: string; createdAt: string }>`
      select id, created_at as "createdAt" from event_signups
      where event_id = ${row.eventId} and date = ${row.date} and whatsapp = ${full}`.execute(db)
    const [other] = same
    if (other && other.createdAt <= row.createdAt) {
      await becomeRepeat(db, row.id)
      continue
    }
    if (other) await becomeRepeat(db, other.id)
    await sql`update event_signups set whatsapp = ${full} where id = ${row.id}`.execute(db)
  }
}

async function becomeRepeat(db: Kysely<any>, id: string): Promise<void> {
  await sql`insert into repeated_signups (id, event_id, date, name, party_size, status, cancel_token, created_at)
    select id, event_id, date, name, party_size, status, cancel_token, created_at from event_signups where id = ${id}`.execute(db)
  await sql`delete from event_signups where id = ${id}`.execute(db)
}

/** Nothing to undo: a number in full is what the form keeps now. */
export async function down(): Promise<void> {}

/** A kept number (digits, with a '+' if it was typed with one) in full, read as dialled at the site. */
function inFull(kept: string, siteCode: string): string {
  if (kept.startsWith('+')) return kept.slice(1)
  if (kept.startsWith('00')) return kept.slice(2)
  if (kept.length === 7) return siteCode + kept
  if (siteCode.startsWith('1') && kept.length === 10) return `1${kept}`
  return kept
}

async function siteCallingCode(db: Kysely<any>): Promise<string> {
  const { rows } = await sql<{ value: string }>`select value from settings where key = ${SITE_SETTINGS_KEY}`.execute(db)
  if (rows.length === 0) return DEFAULT_CALLING_CODE
  try {
    const code: unknown = JSON.parse(rows[0].value).phoneCountryCode
    return typeof code === 'string' ? code.replace(/\D/g, '') : DEFAULT_CALLING_CODE
  } catch {
    return DEFAULT_CALLING_CODE
  }
}
