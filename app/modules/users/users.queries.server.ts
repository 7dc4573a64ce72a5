import type { Role } from '~/platform/access'
import { db } from '~/platform/db.server'

export interface UserForAdmin {
  id: string
  name: string
  email: string
  role: Role
  createdAt: string
}

export async function listUsersForAdmin(): Promise<UserForAdmin[]> {
  return db.selectFrom('users').select(['id', 'name', 'email', 'role', 'createdAt']).orderBy('name').orderBy('email').execute()
}

export async function getUserForAdmin(id: string): Promise<UserForAdmin | undefined> {
  return db.selectFrom('users').select(['id', 'name', 'email', 'role', 'createdAt']).where('id', '=', id).executeTakeFirst()
}

export async function countUsers(): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow()
  return Number(row.count)
}
