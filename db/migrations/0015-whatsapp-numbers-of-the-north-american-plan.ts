import { sql, type Kysely } from 'kysely'

// As written by this migration's time: the settings row of the site, and the calling code a new site has.
const SITE_SETTINGS_KEY = 'site'
const DEFAULT_CALLING_CODE = '1268'
// A number of the North American plan without its 1: an area code and a number not starting with 0 or 1.
const NANP_NUMBER_WITHOUT_ITS_1 = /^[2-9]\d{2}[2-9]\d{6}$/

/**
 * Until now a product's WhatsApp number typed as it is dialled in Antigua, (268) 555-7788, was
 * stored as 2685557788, which wa.me reads as +268 (Eswatini). The form now gives such a number its
 * 1; on a site of the plan (its calling code starts with 1) the stored numbers of that shape get it
 * here, once, so that every reader of the column (pages, the API, the edit form, backups) has the
 * number chats really go to and none of them has to guess. A 10-digit number typed with its '+' as
 * a real number of another country cannot be told apart from them any more; on a site of the plan
 * it is far rarer than the local habit, and the product page now shows every number in full.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (!(await siteCallingCode(db)).startsWith('1')) return
  const { rows } = await sql<{ id: string; number: string }>`select id, whatsapp_number as number from products`.execute(db)
  for (const { id, number } of rows) {
    if (!NANP_NUMBER_WITHOUT_ITS_1.test(number)) continue
    await sql`update products set whatsapp_number = ${`1${number}`} where id = ${id}`.execute(db)
  }
}

/** Nothing to undo: a number with its 1 is what the form stores now. */
export async function down(): Promise<void> {}

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
