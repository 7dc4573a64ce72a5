import type { Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  // One row per product of the youth marketplace. The seller is named by a first name or a
  // business name only: sellers are young people, nothing else about them is kept.
  await db.schema
    .createTable('products')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull())
    // Whole cents, so that sums and comparisons are exact; null: no price shown.
    .addColumn('price_cents', 'integer')
    .addColumn('seller', 'text', (c) => c.notNull())
    .addColumn('facebook_link', 'text', (c) => c.notNull())
    .addColumn('instagram_link', 'text', (c) => c.notNull())
    // International digits only (8 to 15); the chat link is https://wa.me/<digits>.
    .addColumn('whatsapp_number', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('products_created_at').on('products').column('created_at').execute()

  // A product's images in the order the carousel shows them.
  await db.schema
    .createTable('product_images')
    .addColumn('product_id', 'text', (c) => c.notNull().references('products.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('image_id', 'text', (c) => c.notNull().unique().references('images.id'))
    .addPrimaryKeyConstraint('product_images_pk', ['product_id', 'position'])
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('product_images').execute()
  await db.schema.dropTable('products').execute()
}
