import path from 'node:path'
import SQLite from 'better-sqlite3'
import pg from 'pg'
import type { TestProject } from 'vitest/node'
import { startTestServer } from './server'
import { createTemplateDatabase, type TestDatabase } from './test-database'

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated site with its demo content and administrator, copied for each test server. */
    seededSite: TestDatabase['env']
  }
}

/**
 * Makes the site every HTTP test server starts from, once per run: the real server migrates
 * it, adds the demo content (re-encoding its images) and creates the administrator, then stops.
 */
export default async function setup(project: TestProject) {
  const kind = project.config.env.TEST_DATABASE === 'postgres' ? 'postgres' : 'sqlite'
  const site = await createTemplateDatabase(kind)
  const server = await startTestServer({}, { sharedDatabase: site })
  await demoVideoConverted(site.env)
  await server.stop()
  project.provide('seededSite', site.env)
  return () => site.drop()
}

/** Waits until the server has converted the demo video, so that no test server converts it again. */
async function demoVideoConverted(env: TestDatabase['env']): Promise<void> {
  const query = "select count(*) as waiting from videos where status = 'processing'"
  const waiting = async (): Promise<number> => {
    if (!env.DATABASE_URL) {
      const database = new SQLite(path.join(env.DATA_DIR, 'site.db'), { readonly: true })
      try {
        return Number((database.prepare(query).get() as { waiting: number }).waiting)
      } finally {
        database.close()
      }
    }
    const client = new pg.Client({ connectionString: env.DATABASE_URL })
    await client.connect()
    try {
      return Number((await client.query<{ waiting: string }>(query)).rows[0].waiting)
    } finally {
      await client.end()
    }
  }
  const deadline = Date.now() + 60_000
  while ((await waiting()) > 0) {
    if (Date.now() > deadline) throw new Error('The demo video was not converted within a minute')
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}
