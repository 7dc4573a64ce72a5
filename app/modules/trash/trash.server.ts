import type { Kysely } from 'kysely'
import { BY_THE_SITE, recordAuditEvent } from '~/modules/audit/audit.service.server'
import { deleteEvent } from '~/modules/events/events.service.server'
import { deleteMediaItem } from '~/modules/gallery/gallery.service.server'
import { deleteProduct } from '~/modules/marketplace/marketplace.service.server'
import { deleteArticle } from '~/modules/news/news.service.server'
import type { SectionName } from '~/platform/access'
import { createBackgroundWorker } from '~/platform/background-worker.server'
import { db, nowIso } from '~/platform/db.server'
import {
  EDITED,
  PUBLISHABLE_KIND_NAMES,
  PUBLISHABLE_KINDS,
  type PublishableKind,
  type PublishableTable,
} from '~/platform/publication'
import { redirectWithToast } from '~/platform/toast.server'
import { TRASH_DAYS } from './trash-days'

/** What can be in the trash: the publishable kinds (their records in platform/publication.ts). */
export type TrashKind = PublishableKind

/**
 * The trash (docs/decisions/027-drafts-schedules-and-trash.md): deleting an article, gallery item,
 * event or product only stamps `trashed_at`, so it leaves every public page at once while its
 * files and its slug stay. Restoring clears the stamp; only deleting for good (by hand, by
 * emptying the trash, or after TRASH_DAYS) removes the row and its files, through each module's own delete.
 */

// Each module's own delete, told to delete only what is still in the trash when its transaction
// reads the row: an item restored meanwhile stays. Each returns the label, or nothing when it stayed.
const fromTrash = { fromTrash: true }
const DELETE_FOR_GOOD: Record<TrashKind, (id: string) => Promise<string | undefined>> = {
  article: async (id) => (await deleteArticle(id, fromTrash))?.title,
  event: async (id) => (await deleteEvent(id, fromTrash))?.title,
  media: async (id) => (await deleteMediaItem(id, fromTrash))?.title,
  product: async (id) => (await deleteProduct(id, fromTrash))?.name,
}

// The four tables share id, trashed_at and a label column; one untyped view of them keeps the code single.
const tables = db as unknown as Kysely<
  Record<PublishableTable, { id: string; trashedAt: string | null; title: string; name: string; isSample: number }>
>

export interface TrashedItem {
  kind: TrashKind
  id: string
  label: string
  trashedAt: string
}

/** The sections whose items a user may see in the trash (a marketplace manager: products only). */
export function trashKindsFor(canManage: (section: SectionName) => boolean): TrashKind[] {
  return PUBLISHABLE_KIND_NAMES.filter((kind) => canManage(PUBLISHABLE_KINDS[kind].section))
}

async function labelOf(kind: TrashKind, id: string, trashed: boolean): Promise<string | undefined> {
  const { table, labelColumn } = PUBLISHABLE_KINDS[kind]
  const row = await tables
    .selectFrom(table)
    .select(labelColumn)
    .where('id', '=', id)
    .where('trashedAt', trashed ? 'is not' : 'is', null)
    .executeTakeFirst()
  return row?.[labelColumn]
}

/** Moves an item to the trash; returns its label for the audit log, nothing when it is gone or in the trash already. */
export async function moveToTrash(kind: TrashKind, id: string): Promise<{ label: string } | undefined> {
  const label = await labelOf(kind, id, false)
  if (label === undefined) return undefined
  const { numUpdatedRows } = await tables
    .updateTable(PUBLISHABLE_KINDS[kind].table)
    .set({ trashedAt: nowIso() })
    .where('id', '=', id)
    .where('trashedAt', 'is', null)
    .executeTakeFirst()
  return numUpdatedRows > 0n ? { label } : undefined
}

/**
 * Takes an item out of the trash, with the state it had (draft, scheduled or published). A demo
 * item brought back is kept on purpose: it is the site's own from then on.
 */
export async function restoreFromTrash(kind: TrashKind, id: string): Promise<{ label: string } | undefined> {
  const label = await labelOf(kind, id, true)
  if (label === undefined) return undefined
  const { numUpdatedRows } = await tables
    .updateTable(PUBLISHABLE_KINDS[kind].table)
    .set({ trashedAt: null, ...EDITED })
    .where('id', '=', id)
    .where('trashedAt', 'is not', null)
    .executeTakeFirst()
  return numUpdatedRows > 0n ? { label } : undefined
}

/** Deletes an item in the trash with its files; one that is not in the trash (restored meanwhile too) is left alone. */
export async function deleteForGood(kind: TrashKind, id: string): Promise<{ label: string } | undefined> {
  const label = await DELETE_FOR_GOOD[kind](id)
  return label === undefined ? undefined : { label }
}

/** Where an edit page sends an item in the trash: to the trash, which restores it (an item there is never edited). */
export function redirectToTrash(label: string): Response {
  return redirectWithToast('/admin/trash', `"${label}" is in the trash. Restore it to edit it.`, 'error')
}

// What one page of the trash lists; the rest waits for the list to shrink.
export const TRASH_PAGE_LIMIT = 200

/** What is in the trash of these kinds, most recently deleted first. */
export async function listTrash(kinds: readonly TrashKind[]): Promise<TrashedItem[]> {
  const lists = await Promise.all(
    kinds.map(async (kind) => {
      const { table, labelColumn } = PUBLISHABLE_KINDS[kind]
      const rows = await tables
        .selectFrom(table)
        .select(['id', `${labelColumn} as label` as 'title as label', 'trashedAt'])
        .where('trashedAt', 'is not', null)
        .orderBy('trashedAt', 'desc')
        .limit(TRASH_PAGE_LIMIT)
        .execute()
      return rows.map((row) => ({ kind, id: row.id, label: row.label, trashedAt: row.trashedAt! }))
    }),
  )
  return lists
    .flat()
    .sort((a, b) => b.trashedAt.localeCompare(a.trashedAt))
    .slice(0, TRASH_PAGE_LIMIT)
}

/** How many items of these kinds are in the trash. */
export async function countTrash(kinds: readonly TrashKind[]): Promise<number> {
  const counts = await Promise.all(
    kinds.map(async (kind) => {
      const { count } = await tables
        .selectFrom(PUBLISHABLE_KINDS[kind].table)
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('trashedAt', 'is not', null)
        .executeTakeFirstOrThrow()
      return Number(count)
    }),
  )
  return counts.reduce((sum, count) => sum + count, 0)
}

/** Deletes for good the items of these kinds trashed before `before` (all when null), a batch at a time; returns how many went. */
export async function removeFromTrash(kinds: readonly TrashKind[], before: string | null, batch = 50): Promise<number> {
  let removed = 0
  for (const kind of kinds) {
    const rows = await tables
      .selectFrom(PUBLISHABLE_KINDS[kind].table)
      .select('id')
      .where('trashedAt', 'is not', null)
      .$if(before !== null, (qb) => qb.where('trashedAt', '<', before!))
      .limit(batch - removed)
      .execute()
    for (const row of rows) if ((await DELETE_FOR_GOOD[kind](row.id)) !== undefined) removed++
    if (removed >= batch) break
  }
  return removed
}

/** An item of the demo content a new site comes with (`is_sample`), out of the trash. */
export interface SampleItem {
  kind: TrashKind
  id: string
  label: string
}

/** The demo content of these kinds still out of the trash, each kind in its admin list's order of labels. */
export async function listSampleContent(kinds: readonly TrashKind[]): Promise<SampleItem[]> {
  const lists = await Promise.all(
    kinds.map(async (kind) => {
      const { table, labelColumn } = PUBLISHABLE_KINDS[kind]
      const rows = await tables
        .selectFrom(table)
        .select(['id', `${labelColumn} as label` as 'title as label'])
        .where('isSample', '=', 1)
        .where('trashedAt', 'is', null)
        .orderBy(labelColumn)
        .limit(TRASH_PAGE_LIMIT)
        .execute()
      return rows.map((row) => ({ kind, id: row.id, label: row.label }))
    }),
  )
  return lists.flat()
}

/** How many items of the demo content of these kinds are out of the trash (the dashboard's count). */
export async function countSampleContent(kinds: readonly TrashKind[]): Promise<number> {
  const counts = await Promise.all(
    kinds.map(async (kind) => {
      const { count } = await tables
        .selectFrom(PUBLISHABLE_KINDS[kind].table)
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('isSample', '=', 1)
        .where('trashedAt', 'is', null)
        .executeTakeFirstOrThrow()
      return Number(count)
    }),
  )
  return counts.reduce((sum, count) => sum + count, 0)
}

/**
 * Moves the demo content of these kinds to the trash in one transaction, where each item can be
 * restored; returns how many went. The demo content is a fixed set, so the work is bounded.
 */
export async function moveSampleContentToTrash(kinds: readonly TrashKind[]): Promise<number> {
  const trashedAt = nowIso()
  return tables.transaction().execute(async (trx) => {
    let moved = 0
    for (const kind of kinds) {
      const { numUpdatedRows } = await trx
        .updateTable(PUBLISHABLE_KINDS[kind].table)
        .set({ trashedAt })
        .where('isSample', '=', 1)
        .where('trashedAt', 'is', null)
        .executeTakeFirst()
      moved += Number(numUpdatedRows)
    }
    return moved
  })
}

const PURGE_BATCH = 50

const trashPurger = createBackgroundWorker({
  name: 'removal of items over 30 days in the trash',
  pass: async () => {
    const before = new Date(Date.now() - TRASH_DAYS * 24 * 60 * 60_000).toISOString()
    const removed = await removeFromTrash(PUBLISHABLE_KIND_NAMES, before, PURGE_BATCH)
    if (removed > 0) await recordAuditEvent({ by: BY_THE_SITE, action: 'trash.expired', detail: { removed } })
    return { more: removed === PURGE_BATCH }
  },
  intervalMs: 60 * 60_000,
})

export const startTrashPurger = trashPurger.start
export const stopTrashPurger = trashPurger.stop
