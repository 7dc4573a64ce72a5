import type { ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { inject } from 'vitest'
import { startServerProcess, stopAtTheEnd, stopServerProcess } from './server-process'
import { copyTestDatabase, createTestDatabase, type TestDatabase } from './test-database'

const root = path.resolve(import.meta.dirname, '../..')

export interface TestServer {
  url: string
  process: ChildProcess
  output: () => string
  database: TestDatabase
  stop(signal?: NodeJS.Signals): Promise<number | null>
}

export interface TestServerOptions {
  /**
   * Run on this database (another test server's) instead of a fresh one, as a second app
   * process would. Its owner drops it: stop this server first.
   */
  sharedDatabase?: TestDatabase
  /** Start from an empty database (as a new install does) instead of a copy of the seeded site. */
  emptySite?: boolean
  /**
   * The built program to run: `start.js` (server/index.ts) or `start-cluster.js` (server/cluster.ts);
   * or `dev`, the development server (server/dev.ts, `npm run dev`), which needs no build; or
   * `npm start` (scripts/start.mjs), which builds first when the build is old, in `checkout`.
   */
  script?: 'start.js' | 'start-cluster.js' | 'dev' | 'npm start'
  /** The copy of the project `npm start` runs in (it may build there). */
  checkout?: string
  /** Run the server as this user (the test runs as root, say, whom file permissions do not stop). */
  user?: { uid: number; gid: number }
}

/** A copy of the site that tests/setup/seeded-site.ts made for this run, or a new empty database. */
async function databaseForServer(kind: 'sqlite' | 'postgres', options: TestServerOptions): Promise<TestDatabase> {
  if (options.sharedDatabase) return options.sharedDatabase
  const seeded = options.emptySite ? undefined : inject('seededSite')
  return seeded ? copyTestDatabase({ env: seeded, drop: async () => {} }) : createTestDatabase(kind)
}

/**
 * Starts the real built server (npm run build first) on a free port with its own database, SQLite
 * or PostgreSQL as the Vitest project says: a copy of the seeded site, or an empty one. A server
 * the test does not stop is stopped when its file ends (tests/setup/servers-stopped.ts).
 */
export async function startTestServer(
  extraEnv: Record<string, string> = {},
  options: TestServerOptions = {},
): Promise<TestServer> {
  const dev = options.script === 'dev'
  const npmStart = options.script === 'npm start'
  const cwd = npmStart ? (options.checkout ?? root) : root
  const program = dev
    ? path.join(root, 'server/dev.ts')
    : npmStart
      ? path.join(cwd, 'scripts/start.mjs')
      : path.join(root, process.env.BUILD_DIR ?? 'build', 'server', options.script ?? 'start.js')
  if (!fs.existsSync(program)) {
    throw new Error(`No server build at ${program}: run \`npm run build\` before the HTTP tests (npm test does).`)
  }
  const kind = process.env.TEST_DATABASE === 'postgres' ? 'postgres' : 'sqlite'
  const database = await databaseForServer(kind, options)
  const dropDatabase = () => (options.sharedDatabase ? Promise.resolve() : database.drop())
  let started
  try {
    started = await startServerProcess(
      process.execPath,
      dev ? ['--import', 'tsx', program] : [program],
      {
        cwd,
        env: {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          NODE_ENV: dev ? 'development' : 'production',
          LOG_LEVEL: 'warn',
          HOST: '127.0.0.1',
          PORT: '0',
          ADMIN_EMAIL: 'admin@example.org',
          ADMIN_PASSWORD: 'correct horse battery',
          ...database.env,
          ...extraEnv,
        },
        ...options.user,
      },
      // The development server prepares Vite's dependencies first; `npm start` may build first.
      { idleStartTimeout: dev || npmStart ? 120_000 : 30_000 },
    )
  } catch (error) {
    // A server that refused to start leaves no database behind either.
    await dropDatabase()
    throw error
  }
  const { child, output } = started
  let stopping = false
  // A server that dies in the middle of a test shows why, beside the test's own failure.
  child.on('exit', (code) => {
    if (!stopping && code) console.error(`The test server exited with ${code}:\n${output()}`)
  })
  async function stop(signal?: NodeJS.Signals) {
    stopping = true
    forget()
    const code = await stopServerProcess(started!, signal)
    await dropDatabase()
    return code
  }
  const forget = stopAtTheEnd(stop)
  return { url: started.url, process: child, output, database, stop }
}
