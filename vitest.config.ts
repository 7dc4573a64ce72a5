import path from 'node:path'
import { defineConfig } from 'vitest/config'

/*
 * Four kinds of test, each run as often as it needs:
 * - unit: `*.unit.test.ts`, pure code, once;
 * - module: other tests under app/ and db/, which use the database: on SQLite and on PostgreSQL;
 * - http: tests/http, the real built server: on SQLite, and the files named in
 *   POSTGRES_HTTP_TESTS again on PostgreSQL (where the database's behaviour is what is tested);
 *   `*.postgres.test.ts` anywhere are about PostgreSQL alone and run only on it.
 */
const POSTGRES_ONLY_TESTS = '**/*.postgres.test.ts'
const POSTGRES_ONLY_HTTP_TESTS = 'tests/http/**/*.postgres.test.ts'
const POSTGRES_HTTP_TESTS = [
  POSTGRES_ONLY_HTTP_TESTS,
  'tests/http/a-conversion-cut-off-by-a-killed-server-resumes-at-once.test.ts',
  'tests/http/a-preview-link-shows-an-unpublished-item.test.ts',
  'tests/http/a-search-of-common-words-does-not-stall-the-site.test.ts',
  'tests/http/a-session-alone-cannot-change-how-an-account-signs-in.test.ts',
  'tests/http/admin-lists-show-fifty-rows-a-page.test.ts',
  'tests/http/admin-routes-are-protected.test.ts',
  'tests/http/all-day-events-over-http.test.ts',
  'tests/http/an-article-reaches-each-subscriber-once-across-a-kill.test.ts',
  'tests/http/an-events-page-follows-every-change.test.ts',
  'tests/http/an-invited-person-chooses-their-own-password.test.ts',
  'tests/http/an-item-kept-for-everyone-follows-each-change-and-save-data.test.ts',
  'tests/http/anonymous-pages-are-served-from-memory.test.ts',
  'tests/http/backup-restore.test.ts',
  'tests/http/calendar-work-is-bounded.test.ts',
  'tests/http/concurrent-writes-never-fail.test.ts',
  'tests/http/contact-form-delivers-messages.test.ts',
  'tests/http/deleted-items-wait-in-the-trash.test.ts',
  'tests/http/descriptions-are-written-in-markdown.test.ts',
  'tests/http/files-of-a-killed-upload-are-removed-on-restart.test.ts',
  'tests/http/files-of-unpublished-items-are-for-the-team-only.test.ts',
  'tests/http/forgotten-passwords-are-reset-by-a-one-time-link.test.ts',
  'tests/http/health-check-reports-database-outage.test.ts',
  'tests/http/item-pages-follow-every-change.test.ts',
  'tests/http/my-account-lists-and-signs-out-devices.test.ts',
  'tests/http/nul-characters-are-not-found-or-dropped.test.ts',
  'tests/http/people-deleted-for-good-leave-no-trace-on-disk.test.ts',
  'tests/http/people-sign-up-for-events.test.ts',
  'tests/http/removed-and-demoted-users-lose-their-sessions.test.ts',
  'tests/http/sample-content-is-removed-in-one-action.test.ts',
  'tests/http/sign-ups-neither-mail-strangers-nor-tell-who-attends.test.ts',
  'tests/http/resumable-uploads-are-limited-per-user.test.ts',
  'tests/http/sign-in-is-throttled.test.ts',
  'tests/http/subscribers-confirm-and-unsubscribe-in-one-click.test.ts',
  'tests/http/the-owner-sets-up-a-new-site.test.ts',
  'tests/http/the-site-is-searched.test.ts',
  'tests/http/two-step-sign-in.test.ts',
  'tests/http/unpublished-items-stay-off-every-public-page.test.ts',
  'tests/http/whatsapp-numbers-reach-the-right-country.test.ts',
]

const UNIT_TESTS = [
  'app/**/*.unit.test.ts',
  'server/**/*.unit.test.ts',
  'db/**/*.unit.test.ts',
  'tests/lint/**/*.unit.test.ts',
  'tests/setup/**/*.unit.test.ts',
]
const MODULE_TESTS = ['app/**/*.test.ts', 'server/**/*.test.ts', 'db/**/*.test.ts']
const base = {
  testTimeout: 20_000,
  hookTimeout: 60_000,
  setupFiles: ['tests/setup/console-errors-fail.ts'],
}
const onDatabase = (kind: 'sqlite' | 'postgres') => ({
  ...base,
  setupFiles: [...base.setupFiles, 'tests/setup/database.ts'],
  env: { TEST_DATABASE: kind },
})
const http = (kind: 'sqlite' | 'postgres') => ({
  ...onDatabase(kind),
  setupFiles: [...onDatabase(kind).setupFiles, 'tests/setup/servers-stopped.ts'],
  // Some tests start servers of their own: a start may take up to two minutes on a loaded machine
  // (tests/setup/server-process.ts), and fails with its own message before the test's time is up.
  testTimeout: 180_000,
  hookTimeout: 180_000,
  // Each test server starts from a copy of one migrated site with its demo content (made once).
  globalSetup: ['tests/setup/seeded-site.ts'],
})

export default defineConfig({
  resolve: { alias: { '~': path.resolve(import.meta.dirname, 'app') } },
  test: {
    projects: [
      { extends: true, test: { ...base, name: 'unit', include: UNIT_TESTS } },
      {
        extends: true,
        test: { ...onDatabase('sqlite'), name: 'sqlite', include: MODULE_TESTS, exclude: [...UNIT_TESTS, POSTGRES_ONLY_TESTS] },
      },
      { extends: true, test: { ...onDatabase('postgres'), name: 'postgres', include: MODULE_TESTS, exclude: UNIT_TESTS } },
      {
        extends: true,
        test: {
          ...http('sqlite'),
          name: 'http-sqlite',
          include: ['tests/http/**/*.test.ts'],
          exclude: [POSTGRES_ONLY_HTTP_TESTS],
        },
      },
      { extends: true, test: { ...http('postgres'), name: 'http-postgres', include: POSTGRES_HTTP_TESTS } },
    ],
  },
})
