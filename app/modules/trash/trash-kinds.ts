import type { SectionName } from '~/platform/access'

/** How long a deleted item waits in the trash before it and its files are removed for good. */
export const TRASH_DAYS = 30

/** What can be in the trash, with the admin section that manages each and the words for it. */
export const TRASH_KINDS = {
  article: { section: 'news', noun: 'Article' },
  event: { section: 'events', noun: 'Event' },
  media: { section: 'gallery', noun: 'Photo or video' },
  product: { section: 'products', noun: 'Product' },
} as const satisfies Record<string, { section: SectionName; noun: string }>

export type TrashKind = keyof typeof TRASH_KINDS

export const TRASH_KIND_NAMES = Object.keys(TRASH_KINDS) as TrashKind[]
