import { afterAll } from 'vitest'
import { signIn } from './http-session'
import { startTestServer, type TestServer } from './server'

/**
 * The built server that all the tests of one file share, stopped after the last of them. Await it
 * at the top of the test file: `const server = await startServerForFile()`.
 */
export async function startServerForFile(extraEnv: Record<string, string> = {}): Promise<TestServer> {
  const server = await startTestServer(extraEnv)
  afterAll(async () => {
    await server.stop()
  })
  return server
}

/** The same, with the session cookie of the administrator, signed in through /login. */
export async function startServerForFileSignedIn(): Promise<{ server: TestServer; admin: string }> {
  const server = await startServerForFile()
  try {
    return { server, admin: await signIn(server) }
  } catch (error) {
    // A failed sign-in fails the file before its afterAll hooks run.
    await server.stop()
    throw error
  }
}
