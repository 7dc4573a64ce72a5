import type { Kysely } from 'kysely'

/** An optional photograph behind each page's hero, chosen by the admin with the page's texts. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('page_sections')
    .addColumn('hero_image_id', 'text', (c) => c.references('images.id'))
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('page_sections').dropColumn('hero_image_id').execute()
}
