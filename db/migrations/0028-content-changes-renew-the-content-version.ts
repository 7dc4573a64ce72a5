import { PostgresAdapter, sql, type Kysely } from 'kysely'

/**
 * Every write to a table whose rows a public page shows makes the content version due for
 * renewal, in the writer's own transaction, whoever writes (a form, a script, a background job,
 * a test creating its content through a module's service): it sets 'next-publish-at' to a time
 * long past, and the next reader of the token renews it (app/platform/content-version.server.ts).
 */

// A conversion's lease and attempts (rewritten while it runs) show nowhere: writing them changes no page.
const VIDEO_COLUMNS_SHOWN = 'status, filename, video_key, poster_image_id, width, height, duration_ms'

/** The tables public pages, feeds and the root loader read, and why. */
const SHOWN_TABLES = [
  ['articles', 'the news pages, the feed, the home page and the search'],
  ['media_items', 'the photos pages, the home page highlights and the search'],
  ['events', 'the calendar, the event pages, the home page, the ICS feeds and the search'],
  ['event_skipped_dates', 'dates a repeating event leaves out of the calendar'],
  ['event_signup_forms', 'whether and how an event page offers a sign-up'],
  ['products', 'the marketplace, its API, the home page highlights and the search'],
  ['product_images', 'the pictures of a product'],
  ['images', 'every picture (their alt texts and sizes) and the page heroes'],
  ['videos', 'a gallery video shows once converted, with its poster', VIDEO_COLUMNS_SHOWN],
  ['page_sections', "each page's texts and hero image"],
  ['settings', 'the site settings every page shows (name, contact details, menus)'],
] as [table: string, reason: string, updatedColumns?: string][]

/** The token itself and its renewal time: the trigger must not fire on the writes it causes. */
const TOKEN_KEY_LIST = `'content-version', 'next-publish-at'`
const DUE = '1970-01-01T00:00:00.000Z'

export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) await upPostgres(db)
  else await upSqlite(db)
}

async function upSqlite(db: Kysely<any>): Promise<void> {
  // SQLite runs one write transaction at a time: a row already due needs no second write.
  const markDue = `update settings set value = '${DUE}' where key = 'next-publish-at' and value <> '${DUE}';`
  for (const [table, , columns] of SHOWN_TABLES) {
    for (const event of ['insert', 'update', 'delete'] as const) {
      const row = event === 'delete' ? 'old' : 'new'
      const when = table === 'settings' ? `when ${row}.key not in (${TOKEN_KEY_LIST})` : ''
      await sql
        .raw(
          `create trigger ${table}_content_changed_${event} after ${event === 'update' && columns ? `update of ${columns}` : event} on ${table} for each row ${when} begin ${markDue} end`,
        )
        .execute(db)
    }
  }
}

async function upPostgres(db: Kysely<any>): Promise<void> {
  // Run at commit (deferred constraint triggers), once per transaction: the row's lock is the
  // writer's last, so it cannot close a circle with the locks a sign-up or an editor takes on the
  // way (a deadlock), and it is held for the commit alone, so a renewal waits no longer than that.
  // Always written, never skipped when already due: the lock makes a renewal that began meanwhile
  // wait for this transaction, so it cannot miss what this transaction wrote. The schema is named
  // at each call: a restore builds the tables in a schema of its own first.
  await sql
    .raw(
      `create function content_changed() returns trigger language plpgsql as $$
       begin
         if current_setting('site.content_changed', true) = 'yes' then return null; end if;
         perform set_config('site.content_changed', 'yes', true);
         execute format('update %I.settings set value = $1 where key = $2', TG_TABLE_SCHEMA) using '${DUE}', 'next-publish-at';
         return null;
       end $$`,
    )
    .execute(db)
  for (const [table, , columns] of SHOWN_TABLES) {
    for (const event of ['insert', 'update', 'delete'] as const) {
      const row = event === 'delete' ? 'old' : 'new'
      const when = table === 'settings' ? `when (${row}.key not in (${TOKEN_KEY_LIST}))` : ''
      await sql
        .raw(
          `create constraint trigger ${table}_content_changed_${event} after ${event === 'update' && columns ? `update of ${columns}` : event} on ${table}
           deferrable initially deferred for each row ${when} execute function content_changed()`,
        )
        .execute(db)
    }
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter
  for (const [table] of SHOWN_TABLES) {
    for (const event of ['insert', 'update', 'delete']) {
      await sql.raw(`drop trigger ${table}_content_changed_${event}${postgres ? ` on ${table}` : ''}`).execute(db)
    }
  }
  if (postgres) await sql`drop function content_changed()`.execute(db)
}
