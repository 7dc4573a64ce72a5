const SLUG_MAX = 80

/** A readable, URL-safe form of a title: 'Back to School Drive!' -> 'back-to-school-drive'; `fallback` when nothing is left. */
export function slugify(title: string, fallback: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, SLUG_MAX)
    .replace(/^-+|-+$/g, '')
  return slug || fallback
}

/** `base`, or `base-2`, `base-3`, ...: the first that is not taken (`taken` holds the slugs like `base-%`). */
export function firstFreeSlug(base: string, taken: ReadonlySet<string>): string {
  let slug = base
  for (let n = 2; taken.has(slug); n++) slug = `${base}-${n}`
  return slug
}
