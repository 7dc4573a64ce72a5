import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runBackupScript } from '../setup/backup-scripts'
import { s3Env, startS3Server } from '../setup/s3-server'
import { startTestServer, type TestServer } from '../setup/server'
import { createTestDatabase, type TestDatabase } from '../setup/test-database'

// A site with articles, media, events and products (the demo content) on SQLite and local disk
// is backed up, restored on PostgreSQL with its files in an S3 bucket, backed up there and
// restored on SQLite and local disk again: every public page and every file stays the same.
// (Runs once, in the SQLite project: it uses both databases itself.)
const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'site-backup-move-'))
const s3 = await startS3Server()
const made: TestDatabase[] = []
// Every server names the same origin in its links and share buttons, as one site does.
const PUBLIC_URL = 'https://www.example.org'
afterAll(async () => {
  await s3.stop()
  for (const database of made) await database.drop()
  fs.rmSync(workDir, { recursive: true, force: true })
})

/** The public pages a visitor and a search engine find: the sitemap's, plus the feeds and the API. */
async function publicPaths(server: TestServer): Promise<string[]> {
  const sitemap = await (await fetch(`${server.url}/sitemap.xml`)).text()
  const paths = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]).pathname + new URL(m[1]).search)
  return [...new Set([...paths, '/sitemap.xml', '/news/feed.xml', '/calendar.ics', '/api/marketplace', '/robots.txt'])]
}

interface SiteCopy {
  pages: Map<string, string>
  files: Map<string, Buffer>
  /** What a search finds: each engine builds its own index from the restored rows. */
  found: string[]
}

/** The addresses a search for a word of the demo content finds (each engine marks and orders them its own way). */
async function searchResults(server: TestServer): Promise<string[]> {
  const page = await (await fetch(`${server.url}/search?q=distribution`)).text()
  return [...page.matchAll(/<h2 class="search-result-title"><a href="([^"]+)"/g)].map((m) => m[1]).sort()
}

/** The home page shows a few products picked at random (and its data for the browser names them). */
function withoutRandomParts(page: string, text: string): string {
  if (page !== '/') return text
  return text
    .replace(/<section[^>]*aria-labelledby="marketplace-highlights">[\s\S]*?<\/section>/, '')
    .replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, '<script></script>')
}

/** Every public page (the server's own origin and the per-answer nonce taken out) and every /media/ file it names. */
async function readSite(server: TestServer, paths: string[]): Promise<SiteCopy> {
  const pages = new Map<string, string>()
  const media = new Set<string>()
  for (const page of paths) {
    const response = await fetch(server.url + page, { redirect: 'manual' })
    expect(response.status, page).toBe(200)
    const text = withoutRandomParts(page, await response.text())
    for (const m of text.matchAll(/\/media\/[\w./-]+/g)) media.add(m[0])
    pages.set(
      page,
      text
        .replaceAll(server.url, 'ORIGIN')
        .replaceAll(server.url.replace('http://', ''), 'HOST')
        .replace(/nonce="[^"]+"/g, 'nonce="NONCE"'),
    )
  }
  const files = new Map<string, Buffer>()
  for (const file of [...media].sort()) {
    const response = await fetch(server.url + file)
    expect(response.status, file).toBe(200)
    files.set(file, Buffer.from(await response.arrayBuffer()))
  }
  return { pages, files, found: await searchResults(server) }
}

/** Where two texts part, with a little of each around it; undefined when they are the same. */
function firstDifference(actual: string, expected: string): string | undefined {
  if (actual === expected) return undefined
  let at = 0
  while (actual[at] === expected[at]) at++
  return `at ${at}: got …${actual.slice(at - 80, at + 120)}…\nexpected …${expected.slice(at - 80, at + 120)}…`
}

function expectSameSite(actual: SiteCopy, expected: SiteCopy) {
  expect([...actual.pages.keys()]).toEqual([...expected.pages.keys()])
  for (const [page, html] of expected.pages) expect(firstDifference(actual.pages.get(page)!, html), page).toBeUndefined()
  expect([...actual.files.keys()]).toEqual([...expected.files.keys()])
  for (const [file, bytes] of expected.files) expect(actual.files.get(file)!.equals(bytes), file).toBe(true)
  expect(expected.found.length).toBeGreaterThan(2)
  expect(actual.found).toEqual(expected.found)
}

async function readRestoredSite(database: TestDatabase, extraEnv: Record<string, string>, paths: string[]) {
  const server = await startTestServer({ PUBLIC_URL, ...extraEnv }, { sharedDatabase: database })
  try {
    return await readSite(server, paths)
  } finally {
    await server.stop()
  }
}

describe('a backup moves a site between SQLite with local files and PostgreSQL with S3', { timeout: 120_000 }, () => {
  let original: SiteCopy
  let paths: string[]
  const toPostgres = path.join(workDir, 'from-sqlite.tar.gz')
  const toSqlite = path.join(workDir, 'from-postgres.tar.gz')
  let onPostgres: TestDatabase
  let postgresFiles: Record<string, string>

  it('restores a SQLite site on local disk into PostgreSQL and S3, every page and file the same', async () => {
    const source = await startTestServer({ PUBLIC_URL })
    try {
      paths = await publicPaths(source)
      expect(paths.filter((p) => /^\/(news|calendar|photos|marketplace)\/./.test(p)).length).toBeGreaterThan(10)
      original = await readSite(source, paths)
      expect(original.files.size).toBeGreaterThan(10)
      const backup = await runBackupScript('backup', [toPostgres], source.database.env)
      expect(backup.output).toContain('Backed up the SQLite database')
      expect(backup.code).toBe(0)
    } finally {
      await source.stop()
    }

    onPostgres = await createTestDatabase('postgres')
    made.push(onPostgres)
    postgresFiles = s3Env(await s3.createBucket())
    const restore = await runBackupScript('restore', [toPostgres], { ...onPostgres.env, ...postgresFiles })
    expect(restore.output).toContain('the SQLite database (into PostgreSQL)')
    expect(restore.code).toBe(0)
    expectSameSite(await readRestoredSite(onPostgres, postgresFiles, paths), original)
  })

  it('restores it back from PostgreSQL and S3 into SQLite on local disk, every page and file the same', async () => {
    const backup = await runBackupScript('backup', [toSqlite], { ...onPostgres.env, ...postgresFiles })
    expect(backup.output).toContain('Backed up the PostgreSQL database')
    expect(backup.code).toBe(0)

    const onSqlite = await createTestDatabase('sqlite')
    made.push(onSqlite)
    const restore = await runBackupScript('restore', [toSqlite], onSqlite.env)
    expect(restore.output).toContain('the PostgreSQL database (into SQLite)')
    expect(restore.code).toBe(0)
    expectSameSite(await readRestoredSite(onSqlite, {}, paths), original)

    // Over a site that has data, only with --force.
    expect((await runBackupScript('restore', [toSqlite], onSqlite.env)).code).toBe(1)
    const forced = await runBackupScript('restore', [toSqlite, '--force'], onSqlite.env)
    expect(forced.output).toContain('the PostgreSQL database (into SQLite)')
    expect(forced.code).toBe(0)
  })
})
