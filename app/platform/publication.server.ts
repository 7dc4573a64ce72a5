import { sql, type ExpressionBuilder, type RawBuilder } from 'kysely'
import { instantIn } from './dates'
import { db, type Db } from './db.server'
import {
  kindOfTable,
  PUBLISHABLE_KINDS,
  PUBLISHABLE_TABLES,
  type PublicationState,
  type PublishableTable,
  type PublishChoiceInput,
} from './publication'

/**
 * The one rule of what is public (docs/decisions/027-drafts-schedules-and-trash.md): a row of
 * these tables is public once its publish time has come and while it is not in the trash. Every
 * public query adds `isPublicNow(table)`; none writes the rule itself.
 */

// The four tables share the two columns; a builder over any of them (alone or joined) takes the condition.
type AnyBuilder = ExpressionBuilder<any, any>

/** Kysely condition: published by `now` and not in the trash. */
export function isPublicNow(table: PublishableTable, now: Date = new Date()) {
  return (eb: AnyBuilder) => eb.and([eb(`${table}.publishAt`, '<=', now.toISOString()), eb(`${table}.trashedAt`, 'is', null)])
}

/** The same rule as `isPublicNow`, for raw SQL that joins the tables under their own names (the search). */
export function isPublicNowSql(table: PublishableTable, now: Date = new Date()): RawBuilder<boolean> {
  const name = PUBLISHABLE_KINDS[kindOfTable(table)].sqlTable
  return sql<boolean>`(${sql.ref(`${name}.publish_at`)} <= ${now.toISOString()} and ${sql.ref(`${name}.trashed_at`)} is null)`
}

/** Who an item page is for: visitors see public items; a preview link also shows its one draft or scheduled item. */
export type Audience = 'public' | { previewOf: string }

/** Kysely condition: public now, or (for a preview link) the link's own item while it is out of the trash. */
export function isVisibleTo(table: PublishableTable, audience: Audience, now: Date = new Date()) {
  if (audience === 'public') return isPublicNow(table, now)
  return (eb: AnyBuilder) =>
    eb.or([
      isPublicNow(table, now)(eb),
      eb.and([eb(`${table}.id`, '=', audience.previewOf), eb(`${table}.trashedAt`, 'is', null)]),
    ])
}

/** Kysely condition for the admin lists: out of the trash, and in `state` when one is asked for. */
export function isInState(table: PublishableTable, state: PublicationState | null, now: Date = new Date()) {
  return (eb: AnyBuilder) => {
    const publishAt = `${table}.publishAt`
    const conditions = [eb(`${table}.trashedAt`, 'is', null)]
    if (state === 'draft') conditions.push(eb(publishAt, 'is', null))
    if (state === 'scheduled') conditions.push(eb(publishAt, '>', now.toISOString()))
    if (state === 'published') conditions.push(eb(publishAt, '<=', now.toISOString()))
    return eb.and(conditions)
  }
}

/** How many rows of `table` an admin list in `state` pages through (out of the trash). */
export async function countInState(table: PublishableTable, state: PublicationState | null): Promise<number> {
  const { count } = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where(isInState(table, state))
    .executeTakeFirstOrThrow()
  return Number(count)
}

/**
 * The publish time a form's choice means, in the site's time zone. "Publish now" keeps the time
 * of an item that is already published (an edit does not move it to the top of the news).
 */
export function publishAtFor(
  choice: PublishChoiceInput,
  { timeZone, current = null, now = new Date() }: { timeZone: string; current?: string | null; now?: Date },
): string | null {
  if (choice.publish === 'draft') return null
  if (choice.publish === 'schedule') return instantIn(choice.publishDate!, choice.publishTime!, timeZone).toISOString()
  return current !== null && current <= now.toISOString() ? current : now.toISOString()
}

/** The earliest publish time still to come among items out of the trash, or null when nothing is scheduled. */
export async function nextPublishAt(executor: Db = db, now: Date = new Date()): Promise<string | null> {
  // One query, not one per table: this runs after every change an admin saves.
  const [first, ...others] = PUBLISHABLE_TABLES.map((table) =>
    executor
      .selectFrom(table as 'articles')
      .select((eb) => eb.fn.min('publishAt').as('publishAt'))
      .where('publishAt', '>', now.toISOString())
      .where('trashedAt', 'is', null),
  )
  const rows = await others.reduce((union, next) => union.unionAll(next), first).execute()
  return rows.flatMap((row) => row.publishAt ?? []).sort()[0] ?? null
}

/**
 * What an admin form's publish choice means for its service: the publish time, in the site's
 * time zone. For an edit (`existing`), "Publish now" keeps the item's own time if it is out already.
 */
export async function publishingOf(
  choice: PublishChoiceInput,
  timeZone: string,
  existing?: { table: PublishableTable; id: string },
): Promise<{ publishAt: string | null }> {
  const current = existing ? await readPublishAt(existing.table, existing.id) : null
  return { publishAt: publishAtFor(choice, { timeZone, current }) }
}

/** An item's publish time (null for a draft or an item that is gone). */
async function readPublishAt(table: PublishableTable, id: string): Promise<string | null> {
  const row = await db.selectFrom(table).select('publishAt').where('id', '=', id).executeTakeFirst()
  return row?.publishAt ?? null
}

export interface ScheduledItem {
  table: PublishableTable
  id: string
  label: string
  publishAt: string
}

/** The next `limit` items to go public among these tables, soonest first (the dashboard's "Scheduled next"). */
export async function listNextScheduled(
  tables: readonly PublishableTable[],
  limit: number,
  now: Date = new Date(),
): Promise<ScheduledItem[]> {
  const lists = await Promise.all(
    tables.map(async (table) => {
      const rows = await db
        .selectFrom(table)
        .select(['id', `${PUBLISHABLE_KINDS[kindOfTable(table)].labelColumn} as label`, 'publishAt'] as [
          'id',
          'title as label',
          'publishAt',
        ])
        .where('publishAt', '>', now.toISOString())
        .where('trashedAt', 'is', null)
        .orderBy('publishAt')
        .limit(limit)
        .execute()
      return rows.map((row) => ({ table, id: row.id, label: row.label, publishAt: row.publishAt! }))
    }),
  )
  return lists
    .flat()
    .sort((a, b) => a.publishAt.localeCompare(b.publishAt))
    .slice(0, limit)
}
