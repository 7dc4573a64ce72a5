function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/**
 * Markdown links to the site's own pages, stored as paths: `[visit](https://our.site/news/x)`
 * becomes `[visit](/news/x)`, so the text survives a change of address and the feed makes each
 * link absolute again with whatever the address is then. Link destinations only (inline links
 * and reference definitions): a bare address is also its own visible text, so it stays as typed.
 */
export function siteLinksRelative(content: string, origin: string): string {
  const site = escapeRegExp(new URL(origin).origin)
  // The origin must end where the address's host ends (`https://our.site.example.net` is someone
  // else's), and `https://our.site//x` stays as typed: `//x` would lead off the site.
  const destination = new RegExp(`(\\]\\(\\s*<?|^ {0,3}\\[[^\\]\\n]+\\]:[ \\t]*<?)${site}(?=[/?#)>\\s]|$)\\/?(?!\\/)`, 'gim')
  return content.replace(destination, '$1/')
}

/** A form's values as stored: the links to the site's own pages (at `origin`) in its Markdown `field` as paths. */
export function withSiteLinksRelative<T extends Record<K, string>, K extends string>(values: T, field: K, origin: string): T {
  return { ...values, [field]: siteLinksRelative(values[field], origin) }
}
