import path from 'node:path'
import { defineConfig } from 'vitest/config'

// Every Vitest test runs twice: once on a fresh SQLite file, once on PostgreSQL.
const shared = {
  setupFiles: ['tests/setup/database.ts'],
  include: ['app/**/*.test.ts', 'server/**/*.test.ts', 'tests/http/**/*.test.ts', 'db/**/*.test.ts'],
  testTimeout: 20_000,
  hookTimeout: 60_000,
}

export default defineConfig({
  resolve: { alias: { '~': path.resolve(import.meta.dirname, 'app') } },
  test: {
    projects: [
      { extends: true, test: { ...shared, name: 'sqlite', env: { TEST_DATABASE: 'sqlite' } } },
      { extends: true, test: { ...shared, name: 'postgres', env: { TEST_DATABASE: 'postgres' } } },
    ],
  },
})
