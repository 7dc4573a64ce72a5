import { afterAll, beforeAll, beforeEach } from 'vitest'
import { createTestDatabase } from './test-database'

// Runs before each test file: point the app at a fresh database, migrate it, and empty it before each test.
const kind = process.env.TEST_DATABASE === 'postgres' ? 'postgres' : 'sqlite'
const testDb = await createTestDatabase(kind)
Object.assign(process.env, testDb.env, { NODE_ENV: 'test' })

beforeAll(async () => {
  const { migrateToLatest } = await import('../../db/migrate.server')
  await migrateToLatest()
})

beforeEach(async () => {
  const { emptyAllTables } = await import('./empty-tables')
  await emptyAllTables()
})

afterAll(async () => {
  const { db } = await import('~/platform/db.server')
  await db.destroy()
  await testDb.drop()
})
