import type { MetaDescriptor } from 'react-router'

/**
 * Title, description, canonical link and social-preview (Open Graph, Twitter card) tags for a
 * page, with absolute URLs so a link shared on WhatsApp or Facebook shows a proper card.
 * The organisation's name and the site's origin come from the root loader's data.
 */

/** The default preview image (drawn by scripts/generate-social-image.ts into public/). */
/** For pages search engines must not list (a preview of an unpublished item). */
export const NOINDEX = { name: 'robots', content: 'noindex' } as const

export const SOCIAL_IMAGE = { path: '/social-preview.jpg', width: 1200, height: 630 } as const

export interface PageSeo {
  /** The page's own title; leave it out on the home page to show the organisation's name alone. */
  title?: string
  description: string
  /** An image for this page (a path or an absolute URL); the default preview image otherwise. */
  image?: { url: string; width?: number; height?: number; alt: string }
  type?: 'website' | 'article'
  /** Extra tags, e.g. article:published_time. */
  extra?: MetaDescriptor[]
}

/** What pageMeta needs from the root loader's data. */
export interface SiteSeoData {
  siteOrigin: string
  settings: { organisationName: string }
}

interface MetaArgsLike {
  location: { pathname: string }
  matches: ReadonlyArray<{ id: string; loaderData?: unknown } | undefined>
}

const DESCRIPTION_MAX = 200

/** Shortens text for a description tag at a word boundary, on one line. */
export function toDescription(text: string, max = DESCRIPTION_MAX): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  if (flat.length <= max) return flat
  const cut = flat.slice(0, max - 1)
  const lastSpace = cut.lastIndexOf(' ')
  const base = lastSpace > max / 2 ? cut.slice(0, lastSpace) : cut
  return `${base.replace(/[\s,;:.]+$/, '')}…`
}

export function absoluteUrl(origin: string, pathOrUrl: string): string {
  return new URL(pathOrUrl, `${origin}/`).toString()
}

function siteSeoData(matches: MetaArgsLike['matches']): SiteSeoData | undefined {
  const root = matches.find((m) => m?.id === 'root')?.loaderData as Partial<SiteSeoData> | undefined
  return root?.siteOrigin && root.settings ? (root as SiteSeoData) : undefined
}

export function pageMeta({ location, matches }: MetaArgsLike, page: PageSeo): MetaDescriptor[] {
  const site = siteSeoData(matches)
  const organisation = site?.settings.organisationName ?? ''
  const title = page.title ? (organisation ? `${page.title} | ${organisation}` : page.title) : organisation
  const description = toDescription(page.description)
  const tags: MetaDescriptor[] = [
    { title },
    { name: 'description', content: description },
    { property: 'og:type', content: page.type ?? 'website' },
    { property: 'og:title', content: title },
    { property: 'og:description', content: description },
    { name: 'twitter:card', content: 'summary_large_image' },
    { name: 'twitter:title', content: title },
    { name: 'twitter:description', content: description },
  ]
  if (organisation) tags.push({ property: 'og:site_name', content: organisation })
  if (!site) return [...tags, ...(page.extra ?? [])]

  const url = absoluteUrl(site.siteOrigin, location.pathname)
  const image = page.image ?? {
    url: SOCIAL_IMAGE.path,
    width: SOCIAL_IMAGE.width,
    height: SOCIAL_IMAGE.height,
    alt: organisation,
  }
  const imageUrl = absoluteUrl(site.siteOrigin, image.url)
  tags.push(
    { tagName: 'link', rel: 'canonical', href: url },
    { property: 'og:url', content: url },
    { property: 'og:image', content: imageUrl },
    { property: 'og:image:alt', content: image.alt },
    { name: 'twitter:image', content: imageUrl },
    { name: 'twitter:image:alt', content: image.alt },
  )
  if (image.width && image.height) {
    tags.push(
      { property: 'og:image:width', content: String(image.width) },
      { property: 'og:image:height', content: String(image.height) },
    )
  }
  return [...tags, ...(page.extra ?? [])]
}

/** What an item's own page (an article, a photo, a product, an event) shares in a link preview. */
export interface SharedItem {
  title: string
  description: string
  /** The item's picture as stored for previews; the site's default preview image otherwise. */
  socialImage?: { path: string; width: number; height: number; alt: string } | null
  /** Dated items (articles, gallery items) are shared as articles with their dates. */
  dates?: { createdAt: string; updatedAt: string }
  extra?: MetaDescriptor[]
}

/** pageMeta for an item's own page: every item page shares the same way. */
export function itemPageMeta(args: MetaArgsLike, item: SharedItem): MetaDescriptor[] {
  const image = item.socialImage
  return pageMeta(args, {
    title: item.title,
    description: item.description,
    type: item.dates ? 'article' : 'website',
    image: image ? { url: image.path, width: image.width, height: image.height, alt: image.alt } : undefined,
    extra: [
      ...(item.dates
        ? [
            { property: 'article:published_time', content: item.dates.createdAt },
            { property: 'article:modified_time', content: item.dates.updatedAt },
          ]
        : []),
      ...(item.extra ?? []),
    ],
  })
}
