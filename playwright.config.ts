import fs from 'node:fs'
import path from 'node:path'
import { defineConfig, devices } from '@playwright/test'
import { CHROMIUM, CHROMIUM_FLAGS } from './tests/setup/chromium'
import { fakeClockEnv } from './tests/setup/fake-clock'

if (!fs.existsSync(CHROMIUM)) {
  throw new Error(`Browser tests need Debian's Chromium at ${CHROMIUM}: apt-get install -y chromium`)
}

export const E2E_PORT = Number(process.env.E2E_PORT ?? 4317)
export const E2E_DATA_DIR = path.resolve(`tmp/e2e-data-${E2E_PORT}`)
export const E2E_ADMIN = { email: 'admin@example.org', password: 'correct horse battery' }
/** Where the site sends its e-mails; the specs that read them start a mail catcher there. */
export const E2E_SMTP_PORT = E2E_PORT + 20_000
/** How far ahead the server's clock runs (libfaketime reads it; a spec on scheduling writes it and sets it back). */
export const E2E_CLOCK_FILE = path.resolve(`tmp/e2e-clock-${E2E_PORT}`)

// Tests create data through module services against the same SQLite file the server uses.
process.env.DATA_DIR = E2E_DATA_DIR
delete process.env.DATABASE_URL

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: false,
  workers: 1,
  forbidOnly: !!process.env.CI,
  retries: 0,
  reporter: process.env.CI ? 'line' : 'list',
  outputDir: `tmp/test-results-${E2E_PORT}`,
  use: {
    baseURL: `http://127.0.0.1:${E2E_PORT}`,
    trace: 'retain-on-failure',
    // The service worker would answer page loads the tests intercept or count; the offline tests allow it.
    serviceWorkers: 'block',
    launchOptions: {
      executablePath: CHROMIUM,
      args: CHROMIUM_FLAGS,
    },
  },
  projects: [{ name: 'phone', use: { ...devices['Pixel 7'], defaultBrowserType: 'chromium' } }],
  webServer: {
    // Each run starts from an empty data folder, so the demo content and the admin are fresh.
    command: `rm -rf ${E2E_DATA_DIR} && mkdir -p tmp && echo +0 > ${E2E_CLOCK_FILE} && node ${process.env.BUILD_DIR ?? 'build'}/server/start.js`,
    url: `http://127.0.0.1:${E2E_PORT}/healthz`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: {
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(E2E_PORT),
      DATA_DIR: E2E_DATA_DIR,
      ADMIN_EMAIL: E2E_ADMIN.email,
      ADMIN_PASSWORD: E2E_ADMIN.password,
      LOG_LEVEL: 'warn',
      SMTP_URL: `smtp://127.0.0.1:${E2E_SMTP_PORT}`,
      // The tests add content through the modules, not through the admin's requests that refresh
      // cached pages; the page cache has its own HTTP tests (tests/http/anonymous-pages-...).
      PAGE_CACHE_SECONDS: '0',
      ...fakeClockEnv(E2E_CLOCK_FILE),
    },
  },
})
