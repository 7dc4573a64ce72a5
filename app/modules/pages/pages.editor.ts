import type { PageKey } from './pages.schema'

/** How the admin form lays out each page's document: field names use conform's path syntax. */

export interface EditorField {
  name: string
  label: string
  multiline?: boolean
  optional?: boolean
  type?: 'text' | 'email' | 'tel'
}

export interface EditorGroup {
  legend: string
  fields: EditorField[]
}

export interface PageEditor {
  key: PageKey
  title: string
  path: string
  groups: EditorGroup[]
}

const PARAGRAPH_HINT = 'leave a blank line between paragraphs'

function hero(): EditorGroup {
  return {
    legend: 'Page header',
    fields: [
      { name: 'hero.title', label: 'Title' },
      { name: 'hero.text', label: 'Text', multiline: true },
    ],
  }
}

function section(name: string, legend: string, extra: EditorField[] = []): EditorGroup {
  return {
    legend,
    fields: [
      { name: `${name}.heading`, label: 'Heading' },
      { name: `${name}.text`, label: `Text (${PARAGRAPH_HINT})`, multiline: true },
      ...extra,
    ],
  }
}

/** A heading (and optional intro) followed by one group per card. */
function cards(name: string, legend: string, itemLegend: string, count: number, intro = false): EditorGroup[] {
  const head: EditorField[] = [{ name: `${name}.heading`, label: 'Heading' }]
  if (intro) head.push({ name: `${name}.text`, label: 'Introduction', multiline: true })
  const items = Array.from({ length: count }, (_, i) => ({
    legend: `${itemLegend} ${i + 1}`,
    fields: [
      { name: `${name}.items[${i}].title`, label: 'Title' },
      { name: `${name}.items[${i}].text`, label: 'Text', multiline: true },
    ],
  }))
  return [{ legend, fields: head }, ...items]
}

const CONTACT_PERSON_ROWS = 4

function contactPersons(): EditorGroup[] {
  const people = Array.from({ length: CONTACT_PERSON_ROWS }, (_, i) => ({
    legend: `Contact person ${i + 1} (leave all fields empty to leave out)`,
    fields: [
      { name: `contactPersons.people[${i}].name`, label: 'Name', optional: true },
      { name: `contactPersons.people[${i}].role`, label: 'Role', optional: true },
      { name: `contactPersons.people[${i}].phone`, label: 'Phone (optional)', optional: true, type: 'tel' as const },
      { name: `contactPersons.people[${i}].email`, label: 'E-mail (optional)', optional: true, type: 'email' as const },
    ],
  }))
  return [section('contactPersons', 'Contact persons'), ...people]
}

export const pageEditors: PageEditor[] = [
  {
    key: 'home',
    title: 'Home',
    path: '/',
    groups: [
      hero(),
      ...cards('programmes', 'Programmes', 'Programme', 2),
      ...cards('helpAreas', 'Help areas', 'Help area', 4, true),
      section('impact', 'Impact list'),
      section('donation', 'Donation call to action'),
    ],
  },
  {
    key: 'about',
    title: 'About Us',
    path: '/about',
    groups: [
      hero(),
      section('journey', 'Our journey'),
      ...cards('values', 'Values', 'Value', 4),
      ...cards('initiatives', 'Key initiatives', 'Initiative', 2),
      section('outreach', 'Outreach'),
      ...contactPersons(),
      section('callToAction', 'Call to action'),
    ],
  },
  {
    key: 'services',
    title: 'Services',
    path: '/services',
    groups: [
      hero(),
      ...cards('services', 'Services', 'Service', 6),
      section('impact', 'Impact numbers'),
      section('callToAction', 'Call to action'),
    ],
  },
  {
    key: 'support',
    title: 'Support',
    path: '/support',
    groups: [
      hero(),
      ...cards('waysToHelp', 'Ways to help', 'Way to help', 3),
      section('giveOnline', 'Give online'),
      section('bankTransfer', 'Bank transfer', [
        { name: 'bankTransfer.referenceNote', label: 'Transaction reference note' },
        { name: 'bankTransfer.receiptNote', label: 'Receipt note' },
      ]),
      section('distribution', 'Monthly distribution'),
      section('poetryBooks', 'Poetry books'),
      section('contact', 'Contact prompt'),
    ],
  },
  {
    key: 'impact',
    title: 'Impact',
    path: '/impact',
    groups: [hero(), section('intro', 'Introduction'), section('closing', 'Closing')],
  },
  {
    key: 'marketplace',
    title: 'Marketplace',
    path: '/marketplace',
    groups: [hero(), section('intro', 'Welcome banner: the programme introduction')],
  },
  {
    key: 'privacy',
    title: 'Privacy',
    path: '/privacy',
    groups: [hero(), section('whatWeKeep', 'What we keep and why'), section('yourChoices', 'Your choices')],
  },
]

/** Reads a value from a document by a conform path such as `values.items[2].title`. */
export function getValueAtPath(document: unknown, path: string): string {
  let current: unknown = document
  for (const segment of path.split(/\.|\[(\d+)\]/).filter(Boolean)) {
    if (current === null || typeof current !== 'object') return ''
    current = (current as Record<string, unknown>)[segment]
  }
  return typeof current === 'string' ? current : ''
}
