import crypto from 'node:crypto'
import { sql } from 'kysely'
import { db } from '~/platform/db.server'
import type { PreviewLinkTable } from '~/platform/db-schema'
import { kindOfTable, PUBLISHABLE_KINDS, PUBLISHABLE_TABLES, type PublishableTable } from '~/platform/publication'
import { hashOfSecret, newSecretToken } from '~/platform/secret-tokens.server'
import { PREVIEW_LINK_DAYS } from './previews'

/**
 * Links that show a draft or scheduled item, as its public page will look, to someone without an
 * account (docs/decisions/033-preview-links.md). A link carries its row's id and a random secret;
 * the row keeps the secret's SHA-256. It works for seven days, and ends for good once its item is
 * public, in the trash or deleted.
 */
/** Live links per item: the oldest ends when a new one is made beyond this. */
const LINKS_PER_ITEM = 10

export interface PreviewLink {
  /** What goes in the link: shown to its maker, never stored. */
  token: string
  expiresAt: string
  /** The item's title or name, for the audit log. */
  label: string
}

export type PreviewRefusal = 'not-found' | 'already-public'

interface ItemState {
  label: string
  slug: string
  publishAt: string | null
  trashedAt: string | null
}

async function itemState(table: PublishableTable, id: string): Promise<ItemState | null> {
  const row = await db
    .selectFrom(table)
    .select([
      'slug',
      'publishAt',
      'trashedAt',
      sql<string>`${sql.ref(PUBLISHABLE_KINDS[kindOfTable(table)].labelColumn)}`.as('label'),
    ])
    .where('id', '=', id)
    .executeTakeFirst()
  return row ?? null
}

const isPublic = (item: ItemState, now = new Date()) => item.publishAt !== null && item.publishAt <= now.toISOString()

/** A new link to a draft or scheduled item, or why there can be none. */
export async function issuePreviewLink(
  table: PublishableTable,
  itemId: string,
  createdBy: string,
): Promise<PreviewLink | { refused: PreviewRefusal }> {
  const item = await itemState(table, itemId)
  if (!item || item.trashedAt !== null) return { refused: 'not-found' }
  if (isPublic(item)) return { refused: 'already-public' }
  const id = crypto.randomUUID()
  const secret = newSecretToken()
  const now = Date.now()
  const expiresAt = new Date(now + PREVIEW_LINK_DAYS * 24 * 3_600_000).toISOString()
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('previewLinks').where('expiresAt', '<=', new Date(now).toISOString()).execute()
    const older = await trx
      .selectFrom('previewLinks')
      .select('id')
      .where('itemTable', '=', table)
      .where('itemId', '=', itemId)
      .orderBy('createdAt', 'desc')
      .offset(LINKS_PER_ITEM - 1)
      .limit(1_000)
      .execute()
    if (older.length > 0)
      await trx
        .deleteFrom('previewLinks')
        .where(
          'id',
          'in',
          older.map((row) => row.id),
        )
        .execute()
    await trx
      .insertInto('previewLinks')
      .values({
        id,
        secretHash: hashOfSecret(secret),
        itemTable: table,
        itemId,
        createdBy,
        createdAt: new Date(now).toISOString(),
        expiresAt,
      })
      .execute()
  })
  return { token: `${id}.${secret}`, expiresAt, label: item.label }
}

const TOKEN_PATTERN = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.([\w-]{43})$/

export type ResolvedPreview =
  | { status: 'preview'; table: PublishableTable; itemId: string; publishAt: string | null; path: string; expiresAt: string }
  /** Its item is out: the link has ended, and leads to the public page. */
  | { status: 'public'; path: string }
  | { status: 'ended' }

/** What a link shows now. A link whose item is public, trashed or gone is deleted: it never works again. */
export async function resolvePreviewLink(token: string): Promise<ResolvedPreview> {
  const link = await findLink(token)
  if (!link) return { status: 'ended' }
  const item = await itemState(link.itemTable, link.itemId)
  const path = item ? `${PUBLISHABLE_KINDS[kindOfTable(link.itemTable)].publicPath}/${encodeURIComponent(item.slug)}` : ''
  if (item && item.trashedAt === null && !isPublic(item)) {
    const { itemTable: table, itemId, expiresAt } = link
    return { status: 'preview', table, itemId, publishAt: item.publishAt, path, expiresAt }
  }
  await db.deleteFrom('previewLinks').where('id', '=', link.id).execute()
  return item && item.trashedAt === null ? { status: 'public', path } : { status: 'ended' }
}

async function findLink(token: string): Promise<Omit<PreviewLinkTable, 'secretHash'> | null> {
  const [, id, secret] = TOKEN_PATTERN.exec(token) ?? []
  if (!id || !secret) return null
  const row = await db.selectFrom('previewLinks').selectAll().where('id', '=', id).executeTakeFirst()
  if (!row || !(PUBLISHABLE_TABLES as readonly string[]).includes(row.itemTable)) return null
  const matches = crypto.timingSafeEqual(Buffer.from(row.secretHash, 'hex'), Buffer.from(hashOfSecret(secret), 'hex'))
  if (!matches || Date.parse(row.expiresAt) <= Date.now()) return null
  const { secretHash: _secretHash, ...link } = row
  return link
}

/**
 * Ends the links of items that went public (a schedule came), were trashed or deleted, and the
 * links that ran out, so that an item made a draft again later does not revive an old link.
 */
export async function sweepPreviewLinks(now = new Date()): Promise<void> {
  await db.deleteFrom('previewLinks').where('expiresAt', '<=', now.toISOString()).execute()
  for (const table of PUBLISHABLE_TABLES) {
    const stillUnpublished = db
      .selectFrom(table)
      .select(sql.lit(1).as('one'))
      .where(sql<boolean>`${sql.ref(`${table}.id`)} = ${sql.ref('previewLinks.itemId')}`)
      .where(`${table}.trashedAt`, 'is', null)
      .where((eb) => eb.or([eb(`${table}.publishAt`, 'is', null), eb(`${table}.publishAt`, '>', now.toISOString())]))
    await db
      .deleteFrom('previewLinks')
      .where('itemTable', '=', table)
      .where((eb) => eb.not(eb.exists(stillUnpublished)))
      .execute()
  }
}
