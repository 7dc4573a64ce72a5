import { PostgresAdapter, sql, type Kysely } from 'kysely'

/**
 * Full-text search over articles, gallery items, events and products (docs/decisions/028).
 * Triggers keep the index in the same transaction as every write of those tables, whoever makes
 * it (the admin's forms, the legacy import, the demo content, a restore); this migration fills
 * it from the rows already there.
 */

/** What each source table gives the index: a title, and the text of its body. */
const SEARCHED_TABLES = [
  { table: 'articles', kind: 'article', title: 'title', body: ['content'] },
  { table: 'media_items', kind: 'media', title: 'title', body: ['description'] },
  { table: 'events', kind: 'event', title: 'title', body: ['description', 'location'] },
  { table: 'products', kind: 'product', title: 'name', body: ['description'] },
] as const

/** The schema that holds the unaccent extension when this migration installs it (one per database). */
const EXTENSION_SCHEMA = 'text_search'

export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) await upPostgres(db)
  else await upSqlite(db)
}

function bodyOf(prefix: 'new' | 'source', columns: readonly string[]): string {
  return columns.map((c) => `coalesce(${prefix}.${c}, '')`).join(` || ' ' || `)
}

async function upSqlite(db: Kysely<any>): Promise<void> {
  // The FTS table's rowid is the id of a row here, found by what it indexes.
  await sql`create table search_index_rows (id integer primary key, kind text not null, source_id text not null, unique (kind, source_id))`.execute(
    db,
  )
  await sql`create virtual table search_index using fts5(title, body, tokenize = 'porter unicode61 remove_diacritics 2')`.execute(
    db,
  )
  for (const { table, kind, title, body } of SEARCHED_TABLES) {
    const rowOf = (which: 'new' | 'old') =>
      `(select id from search_index_rows where kind = '${kind}' and source_id = ${which}.id)`
    await sql
      .raw(
        `create trigger ${table}_search_insert after insert on ${table} begin
           insert into search_index_rows (kind, source_id) values ('${kind}', new.id);
           insert into search_index (rowid, title, body) values (${rowOf('new')}, new.${title}, ${bodyOf('new', body)});
         end`,
      )
      .execute(db)
    await sql
      .raw(
        `create trigger ${table}_search_update after update of ${[title, ...body].join(', ')} on ${table} begin
           update search_index set title = new.${title}, body = ${bodyOf('new', body)} where rowid = ${rowOf('old')};
         end`,
      )
      .execute(db)
    await sql
      .raw(
        `create trigger ${table}_search_delete after delete on ${table} begin
           delete from search_index where rowid = ${rowOf('old')};
           delete from search_index_rows where kind = '${kind}' and source_id = old.id;
         end`,
      )
      .execute(db)
    await sql.raw(`insert into search_index_rows (kind, source_id) select '${kind}', id from ${table}`).execute(db)
    await sql
      .raw(
        `insert into search_index (rowid, title, body)
           select r.id, source.${title}, ${bodyOf('source', body)} from ${table} source
           join search_index_rows r on r.kind = '${kind}' and r.source_id = source.id`,
      )
      .execute(db)
  }
}

async function upPostgres(db: Kysely<any>): Promise<void> {
  // An extension belongs to the database, not to a schema: installed once, wherever it already is.
  // Installing it needs CREATE on the database; a user without it needs an administrator to have done so.
  const installedIn = async () =>
    (
      await sql<{
        schema: string
      }>`select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = 'unaccent'`.execute(
        db,
      )
    ).rows[0]?.schema
  if (!(await installedIn())) {
    try {
      await sql.raw(`create schema if not exists ${EXTENSION_SCHEMA}`).execute(db)
      await sql.raw(`create extension if not exists unaccent schema ${EXTENSION_SCHEMA}`).execute(db)
    } catch (error) {
      throw new Error(
        `The site's search needs PostgreSQL's unaccent extension, and this database user may not install it ` +
          `(${(error as Error).message}). Ask the database's administrator to run once: ` +
          `create schema ${EXTENSION_SCHEMA}; create extension unaccent schema ${EXTENSION_SCHEMA}; ` +
          `grant usage on schema ${EXTENSION_SCHEMA} to <the site's user>;`,
      )
    }
  }
  const unaccent = `${quote((await installedIn())!)}.unaccent`
  // English stemming of words without their accents: queries and highlights use the same configuration.
  await sql.raw(`create text search configuration search_english (copy = english)`).execute(db)
  await sql
    .raw(
      `alter text search configuration search_english alter mapping for hword, hword_part, word with ${unaccent}, english_stem`,
    )
    .execute(db)
  await sql
    .raw(
      `create table search_index (
         kind text not null,
         source_id text not null,
         title text not null,
         body text not null,
         document tsvector generated always as (
           setweight(to_tsvector('search_english', title), 'A') || setweight(to_tsvector('search_english', body), 'B')
         ) stored,
         primary key (kind, source_id)
       )`,
    )
    .execute(db)
  await sql`create index search_index_document on search_index using gin (document)`.execute(db)
  // The schema is named at each call: a restore builds the tables in a schema of its own first.
  await sql
    .raw(
      `create function search_index_sync() returns trigger language plpgsql as $$
       declare
         source jsonb;
       begin
         if TG_OP = 'DELETE' then
           execute format('delete from %I.search_index where kind = $1 and source_id = $2', TG_TABLE_SCHEMA) using TG_ARGV[0], OLD.id;
           return null;
         end if;
         source := to_jsonb(NEW);
         execute format(
           'insert into %I.search_index (kind, source_id, title, body) values ($1, $2, $3, $4)
            on conflict (kind, source_id) do update set title = excluded.title, body = excluded.body',
           TG_TABLE_SCHEMA
         ) using TG_ARGV[0], NEW.id, coalesce(source ->> TG_ARGV[1], ''),
           concat_ws(' ', source ->> TG_ARGV[2], source ->> TG_ARGV[3]);
         return null;
       end $$`,
    )
    .execute(db)
  for (const { table, kind, title, body } of SEARCHED_TABLES) {
    const args = [kind, title, ...body].map((a) => `'${a}'`).join(', ')
    await sql
      .raw(
        `create trigger ${table}_search after insert or delete or update of ${[title, ...body].join(', ')} on ${table}
         for each row execute function search_index_sync(${args})`,
      )
      .execute(db)
    await sql
      .raw(
        `insert into search_index (kind, source_id, title, body)
         select '${kind}', id, ${title}, concat_ws(' ', ${body.join(', ')}) from ${table}`,
      )
      .execute(db)
  }
}

function quote(identifier: string): string {
  return `"${identifier.replace(/"/g, '""')}"`
}

export async function down(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter
  for (const { table } of SEARCHED_TABLES) {
    if (postgres) await sql.raw(`drop trigger ${table}_search on ${table}`).execute(db)
    else for (const event of ['insert', 'update', 'delete']) await sql.raw(`drop trigger ${table}_search_${event}`).execute(db)
  }
  await sql`drop table search_index`.execute(db)
  if (postgres) {
    await sql`drop function search_index_sync()`.execute(db)
    await sql`drop text search configuration search_english`.execute(db)
  } else await sql`drop table search_index_rows`.execute(db)
}
