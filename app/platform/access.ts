/**
 * Who may manage what, declared once. The admin navigation and dashboard, every admin route
 * guard (`requireAccess` in auth.server.ts), the page after sign-in, the lock buttons on public
 * pages and the route-manifest test all read this module. Not `.server`: components read it too.
 */

/**
 * An administrator runs everything; an editor the site's content and messages (news, events,
 * photos and videos, products, page texts), not the people (users, subscribers, sign-up lists,
 * the audit log) or the settings; a marketplace manager the marketplace's products only.
 */
export const ROLES = ['admin', 'editor', 'marketplace'] as const
export type Role = (typeof ROLES)[number]

export interface AdminSection {
  /** Its page; the section also owns every admin URL below it (`/admin/news/new`) and its files (`signups.csv`). */
  path: string
  label: string
  /** One line for the dashboard card; the dashboard itself has none. */
  description?: string
  /** A number the admin navigation shows beside the link when it is above zero. */
  counter?: 'unreadMessages'
  /** The roles that may open its pages and send its forms. */
  managedBy: readonly Role[]
  /** An endpoint other sections' forms use, not a page: left out of the navigation and dashboard. */
  endpoint?: true
  /** A page of one item of another section (`:id` in its path), reached from the item: left out of the navigation. */
  ofOneItem?: true
  /** Linked beside "View site" in the header (the guide), not among the sections. */
  inHeader?: true
}

/**
 * The admin sections in navigation order. Only sections whose pages exist are listed: the
 * route-manifest test fails for a section without a route and for an admin route without a
 * section; a URL belongs to the section with the longest path it lies under. A marketplace
 * manager's first section is `products`: their page after sign-in.
 */
export const ADMIN_SECTIONS = {
  dashboard: { path: '/admin', label: 'Dashboard', managedBy: ['admin', 'editor'] },
  news: {
    path: '/admin/news',
    label: 'News',
    description: 'Post, edit and delete news articles and their pictures.',
    managedBy: ['admin', 'editor'],
  },
  events: {
    path: '/admin/events',
    label: 'Events',
    description: 'Add, edit and delete calendar events, including repeating ones.',
    managedBy: ['admin', 'editor'],
  },
  gallery: {
    path: '/admin/photos',
    label: 'Gallery',
    description: 'Upload photos and videos, edit them, choose the featured ones, delete them.',
    managedBy: ['admin', 'editor'],
  },
  products: {
    path: '/admin/products',
    label: 'Products',
    description: 'Add, edit and delete the products of the youth marketplace and their pictures.',
    managedBy: ['admin', 'editor', 'marketplace'],
  },
  trash: {
    path: '/admin/trash',
    label: 'Trash',
    description:
      'Restore deleted articles, photos, events and products, or delete them for good (after 30 days they go by themselves).',
    managedBy: ['admin', 'editor', 'marketplace'],
  },
  signups: {
    path: '/admin/events/:id/signups',
    label: 'Sign-up lists',
    // Who comes to a support group or a youth event, and how to reach them: administrators only.
    managedBy: ['admin'],
    ofOneItem: true,
  },
  messages: {
    path: '/admin/messages',
    label: 'Messages',
    description: 'Read the messages sent through the contact form and see whether they were delivered.',
    counter: 'unreadMessages',
    managedBy: ['admin', 'editor'],
  },
  subscribers: {
    path: '/admin/subscribers',
    label: 'Subscribers',
    description: 'See who gets the e-mail updates, invite or import people, export the list, send the events digest.',
    managedBy: ['admin'],
  },
  users: {
    path: '/admin/users',
    label: 'Users',
    description: 'Add and remove accounts, change roles, reset passwords.',
    managedBy: ['admin'],
  },
  audit: {
    path: '/admin/audit',
    label: 'Audit log',
    description: 'See who signed in and what was changed, when and from which address.',
    managedBy: ['admin'],
  },
  pages: {
    path: '/admin/pages',
    label: 'Page texts',
    description: 'Edit the texts of the home, about, services, support, impact, marketplace and privacy pages.',
    managedBy: ['admin', 'editor'],
  },
  settings: {
    path: '/admin/settings',
    label: 'Site settings',
    description: 'Name, contact details, links, bank accounts, impact figures and time zone.',
    managedBy: ['admin'],
  },
  guide: {
    path: '/admin/guide',
    label: 'Guide',
    description: "How to do a week's tasks, undo a mistake, invite a helper and sign in safely.",
    managedBy: ['admin', 'editor', 'marketplace'],
    inHeader: true,
  },
  account: {
    path: '/admin/account',
    label: 'My account',
    description: 'Change your password.',
    managedBy: ['admin', 'editor', 'marketplace'],
  },
  previews: {
    path: '/admin/previews',
    label: 'Previews',
    // The "Preview" button of the edit pages; each item is checked against its own section.
    managedBy: ['admin', 'editor', 'marketplace'],
    endpoint: true,
  },
  uploads: {
    path: '/admin/uploads',
    label: 'Resumable uploads',
    // The tus endpoint of the forms that take large or many files (the gallery's, the products').
    managedBy: ['admin', 'editor', 'marketplace'],
    endpoint: true,
  },
} as const satisfies Record<string, AdminSection>

export type SectionName = keyof typeof ADMIN_SECTIONS

type UserWithRole = { role: Role }

export function canManage(user: UserWithRole | null | undefined, section: SectionName): boolean {
  return !!user && (ADMIN_SECTIONS[section].managedBy as readonly Role[]).includes(user.role)
}

/** The sections with pages a user may manage, in navigation order. */
export function sectionsFor(user: UserWithRole): (AdminSection & { name: SectionName })[] {
  return (Object.keys(ADMIN_SECTIONS) as SectionName[])
    .filter((name) => {
      const section: AdminSection = ADMIN_SECTIONS[name]
      return canManage(user, name) && !section.endpoint && !section.ofOneItem && !section.inHeader
    })
    .map((name) => ({ name, ...ADMIN_SECTIONS[name] }))
}

/** Where a user goes after sign-in: the first section they may manage. Every role manages `account`. */
export function homeFor(user: UserWithRole): string {
  return sectionsFor(user)[0]?.path ?? ADMIN_SECTIONS.account.path
}
