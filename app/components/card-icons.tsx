/*
 * Small line drawings for the cards of the content pages (programmes, help areas, values,
 * services, ways to help). The page texts are edited freely, so the drawing is chosen from the
 * card's title by keyword, with a fallback by position; it is decoration and hidden from screen
 * readers. 24 x 24 strokes in currentColor.
 */

const ICONS = {
  heart: 'M20.8 4.6a5.5 5.5 0 0 0-7.8 0L12 5.7l-1-1.1a5.5 5.5 0 0 0-7.8 7.8l1 1.1L12 21l7.8-7.5 1-1.1a5.5 5.5 0 0 0 0-7.8z',
  ribbon:
    'M12 13.5c2-2.5 3.6-4.7 3.6-6.9C15.6 4.5 14.1 3 12 3S8.4 4.5 8.4 6.6c0 2.2 1.6 4.4 3.6 6.9zM10.2 11.1 5.5 19.5l2.9.4 1.5 2.6 4-7.4M13.8 11.1l4.7 8.4-2.9.4-1.5 2.6-4-7.4',
  sprout: 'M12 21v-9M12 12c0-4.4-3.1-7-8-7 0 4.9 3.1 7 8 7zM12 14.5c0-4.4 3.1-7 8-7 0 4.9-3.1 7-8 7z',
  people:
    'M16 21v-2a4 4 0 0 0-4-4H6a4 4 0 0 0-4 4v2M9 11a4 4 0 1 0 0-8 4 4 0 0 0 0 8zM22 21v-2a4 4 0 0 0-3-3.9M15 3.1a4 4 0 0 1 0 7.8',
  home: 'M3 10.5 12 3l9 7.5V21h-6v-6H9v6H3z',
  gift: 'M20 12v9H4v-9M2 7h20v5H2zM12 21V7M12 7H7.5a2.5 2.5 0 0 1 0-5C11 2 12 7 12 7zM12 7h4.5a2.5 2.5 0 0 0 0-5C13 2 12 7 12 7z',
  book: 'M4 19.5A2.5 2.5 0 0 1 6.5 17H20M6.5 2H20v20H6.5A2.5 2.5 0 0 1 4 19.5v-15A2.5 2.5 0 0 1 6.5 2z',
  star: 'M12 2.5l2.9 6 6.6.9-4.8 4.6 1.2 6.5L12 17.4l-5.9 3.1 1.2-6.5-4.8-4.6 6.6-.9z',
  hands:
    'M7 11V6.5a1.5 1.5 0 0 1 3 0V11M10 10V4.5a1.5 1.5 0 0 1 3 0V10M13 10V5.5a1.5 1.5 0 0 1 3 0V12M16 9.5a1.5 1.5 0 0 1 3 0V15a7 7 0 0 1-7 7h-1a7 7 0 0 1-5-2.1L2.6 16.4a1.6 1.6 0 0 1 2.3-2.2L7 16V11',
} as const

export type CardIconName = keyof typeof ICONS

const BY_KEYWORD: [RegExp, CardIconName][] = [
  [/cancer|surviv|health|medic|care\b|illness/, 'ribbon'],
  [/youth|young|entrepreneur|educat|train|school|learn|skill|grow|farm/, 'sprout'],
  [/food|cloth|distribut|gift|hamper|donat|give|giving/, 'gift'],
  [/famil|home|hous|shelter|elder|grandparent/, 'home'],
  [/volunteer|serve|service|help|hands/, 'hands'],
  [/communit|people|together|fellowship|partner|outreach/, 'people'],
  [/faith|pray|church|poetry|book|word|bible/, 'book'],
  [/love|compassion|heart|kind|hope/, 'heart'],
  [/excellen|integrity|star|dignity|respect/, 'star'],
]
const FALLBACK: CardIconName[] = ['heart', 'people', 'sprout', 'star', 'home', 'gift']

/** The drawing for a card: by a keyword of its title, else by its position. */
export function cardIconFor(title: string, index: number): CardIconName {
  const words = title.toLowerCase()
  return BY_KEYWORD.find(([pattern]) => pattern.test(words))?.[1] ?? FALLBACK[index % FALLBACK.length]
}

export function CardIcon({ name, className = 'card-icon' }: { name: CardIconName; className?: string }) {
  return (
    <span className={className} aria-hidden="true">
      <svg viewBox="0 0 24 24" width="28" height="28" focusable="false">
        <path d={ICONS[name]} fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
    </span>
  )
}
