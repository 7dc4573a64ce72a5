/** Table types as the app sees them (camelCase; CamelCasePlugin maps to snake_case). */

export interface UserTable {
  id: string
  email: string
  name: string
  role: 'admin' | 'marketplace'
  passwordHash: string
  createdAt: string
  updatedAt: string
}

export interface SessionTable {
  idHash: string
  userId: string
  createdAt: string
  lastSeenAt: string
  expiresAt: string
}

export interface SettingTable {
  key: string
  value: string
  updatedAt: string
}

export interface Database {
  users: UserTable
  sessions: SessionTable
  settings: SettingTable
}
