import { sql, type Kysely } from 'kysely'

// The old site kept photos and articles in one collection; its importer put the gallery ones into
// `articles` with a `category`. They move to a table of their own, and news keeps only news.
const GALLERY_CATEGORIES = sql.join(['Events', 'Education', 'Health', 'Community', 'Projects'].map((c) => sql.lit(c)))

export async function up(db: Kysely<any>): Promise<void> {
  // One row per photo or video of the gallery; a photo has an image, a video a video (whose
  // poster is the video's), and only a video whose files are ready is public.
  await db.schema
    .createTable('media_items')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('featured', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('image_id', 'text', (c) => c.references('images.id'))
    .addColumn('video_id', 'text', (c) => c.references('videos.id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('media_items_category_created_at').on('media_items').columns(['category', 'created_at']).execute()
  await db.schema.createIndex('media_items_created_at').on('media_items').column('created_at').execute()

  // Imported gallery items with a picture become photos; the old site marked featured ones
  // with a title ending in three dots. One without a picture was no photo: it stays news.
  await sql`
    insert into media_items (id, slug, kind, title, description, category, featured, image_id, video_id, created_at, updated_at)
    select id, slug, 'photo', title, content, category, case when title like '%...' then 1 else 0 end, image_id, null, created_at, updated_at
    from articles
    where image_id is not null and category in (${GALLERY_CATEGORIES})
  `.execute(db)
  await sql`delete from articles where image_id is not null and category in (${GALLERY_CATEGORIES})`.execute(db)
  await db.schema.alterTable('articles').dropColumn('category').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('articles').addColumn('category', 'text').execute()
  // Photos go back to where they came from; videos have no place there.
  await sql`
    insert into articles (id, slug, title, content, category, image_id, created_at, updated_at)
    select id, slug, title, description, category, image_id, created_at, updated_at
    from media_items
    where kind = 'photo' and slug not in (select slug from articles)
  `.execute(db)
  await db.schema.dropTable('media_items').execute()
}
