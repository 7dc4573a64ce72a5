import { sql, type Kysely } from 'kysely'

// As written by this migration's time: the settings row of the site, and the calling code a new site has.
const SITE_SETTINGS_KEY = 'site'
const DEFAULT_CALLING_CODE = '1268'

/**
 * Sign-ups kept a WhatsApp number as typed, less its punctuation: +12685550199, 2685550199 and
 * 5550199 were three contacts, though one person. Sign-ups now keep every number in full, as the
 * marketplace does (country code first, no '+'), so one number however it is typed is one contact;
 * the numbers already kept are written so here. One that would then equal another sign-up of the
 * same date (the same person twice) is left as it was: both stay on the list.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const siteCode = await siteCallingCode(db)
  const { rows } = await sql<{ id: string; eventId: string; date: string; whatsapp: string }>`
    select id, event_id as "eventId", date, whatsapp from event_signups where whatsapp is not null
    order by created_at, id`.execute(db)
  for (const row of rows) {
    const full = inFull(row.whatsapp, siteCode)
    if (full === row.whatsapp) continue
    const { rows: same } = await sql`select id from event_signups
      where event_id = ${row.eventId} and date = ${row.date} and whatsapp = ${full}`.execute(db)
    if (same.length === 0) await sql`update event_signups set whatsapp = ${full} where id = ${row.id}`.execute(db)
  }
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
