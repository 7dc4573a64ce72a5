import http from 'node:http'
import type { TestServer } from './server'

/** Browser-like requests against a test server: same-site Origin on writes, redirects not followed. */

export const ADMIN = { email: 'admin@example.org', password: 'correct horse battery' }

export function sessionCookieOf(response: Response): string | undefined {
  return response.headers
    .getSetCookie()
    .find((c) => c.startsWith('sid='))
    ?.split(';')[0]
}

export async function get(server: Pick<TestServer, 'url'>, path: string, cookie?: string, headers: Record<string, string> = {}) {
  return fetch(server.url + path, { redirect: 'manual', headers: { ...(cookie ? { cookie } : {}), ...headers } })
}

export async function post(
  server: Pick<TestServer, 'url'>,
  path: string,
  fields: Record<string, string>,
  cookie?: string,
  headers: Record<string, string> = {},
) {
  return fetch(server.url + path, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      origin: server.url,
      'content-type': 'application/x-www-form-urlencoded',
      ...(cookie ? { cookie } : {}),
      ...headers,
    },
    body: new URLSearchParams(fields),
  })
}

/** Signs in through /login and returns the session cookie (`sid=...`). */
export async function signIn(server: Pick<TestServer, 'url'>, email = ADMIN.email, password = ADMIN.password): Promise<string> {
  const response = await post(server, '/login', { email, password })
  const cookie = sessionCookieOf(response)
  if (response.status !== 302 || !cookie) throw new Error(`Sign-in as ${email} failed with ${response.status}`)
  return cookie
}

/** The id of a user, read from the admin user list the way an admin finds it. */
export async function userIdFromList(server: TestServer, adminCookie: string, name: string): Promise<string> {
  const html = await (await get(server, '/admin/users', adminCookie)).text()
  const link = [...html.matchAll(/<a\b[^>]*>/g)].map((m) => m[0]).find((tag) => tag.includes(`aria-label="Manage ${name}"`))
  const id = link?.match(/href="\/admin\/users\/([\w-]+)"/)?.[1]
  if (!id) throw new Error(`${name} is not in the user list`)
  return id
}

/** A GET's bytes as sent, undecoded (fetch would decode them), with the answer's headers. */
export function getRaw(
  server: Pick<TestServer, 'url'>,
  path: string,
  headers: Record<string, string>,
): Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(server.url + path, { headers }, (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }))
      })
      .on('error', reject)
  })
}
