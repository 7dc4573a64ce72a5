import type { TestProject } from 'vitest/node'
import { startTestServer, type TestServer } from './server'
import { queryServerDatabase } from './server-database'
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
  await demoVideoConverted(server)
  await server.stop()
  project.provide('seededSite', site.env)
  return () => site.drop()
}

/** Waits until the server has converted the demo video, so that no test server converts it again. */
async function demoVideoConverted(server: TestServer): Promise<void> {
  const deadline = Date.now() + 60_000
  const waiting = async () => (await queryServerDatabase(server, "select id from videos where status = 'processing'")).length
  while ((await waiting()) > 0) {
    if (Date.now() > deadline) throw new Error('The demo video was not converted within a minute')
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}
