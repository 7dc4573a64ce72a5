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
  await server.stop()
  project.provide('seededSite', site.env)
  return () => site.drop()
}
