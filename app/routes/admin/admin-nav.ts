import type { Role } from '~/modules/users/users.schema'

export interface AdminNavItem {
  to: string
  label: string
  /** The least role that may open it: 'marketplace' items are for every signed-in user. */
  role: Role
  /** One line for the dashboard card. */
  description?: string
  /** A number the layout shows beside the link when it is above zero. */
  counter?: 'unreadMessages'
}

/** The admin navigation, in order; each admin page adds its entry here. */
export const adminNav: AdminNavItem[] = [
  { to: '/admin', label: 'Dashboard', role: 'admin' },
  { to: '/admin/news', label: 'News', role: 'admin', description: 'Post, edit and delete news articles and their pictures.' },
  { to: '/admin/events', label: 'Events', role: 'admin', description: 'Add, edit and delete calendar events, including repeating ones.' },
  { to: '/admin/messages', label: 'Messages', role: 'admin', description: 'Read the messages sent through the contact form and see whether they were delivered.', counter: 'unreadMessages' },
  { to: '/admin/users', label: 'Users', role: 'admin', description: 'Add and remove accounts, change roles, reset passwords.' },
  { to: '/admin/pages', label: 'Page texts', role: 'admin', description: 'Edit the texts of the home, about, services, support and impact pages.' },
  { to: '/admin/settings', label: 'Site settings', role: 'admin', description: 'Name, contact details, links, bank accounts, impact figures and time zone.' },
  { to: '/admin/account', label: 'My account', role: 'marketplace', description: 'Change your password.' },
]
