// What the browser also needs to know of preview links (see preview-links.server.ts).

/** How long a preview link works, unless its item is published or deleted before. */
export const PREVIEW_LINK_DAYS = 7

/** The `?preview=` of an item page: the link's secret, which shows its draft or scheduled item. */
export const previewQueryParam = 'preview' as const

/** What the banner of a page opened through a preview link says. */
export interface PreviewNotice {
  /** 'a draft' or 'scheduled for Sat, Nov 28, 9:00 AM', on the site's clock. */
  state: string
  /** The link to pass on: `/preview/<secret>` on this site. */
  shareUrl: string
  expires: string
}
