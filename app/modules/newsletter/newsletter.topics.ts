/** What people can ask to hear about. Zod-free: the sign-up form in every page's footer reads it. */
export const TOPICS = ['news', 'events', 'marketplace'] as const
export type Topic = (typeof TOPICS)[number]

export const TOPIC_LABELS: Record<Topic, string> = {
  news: 'News',
  events: 'Events',
  marketplace: 'Youth marketplace',
}
