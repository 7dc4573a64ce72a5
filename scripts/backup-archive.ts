/** What `npm run backup` writes and `npm run restore` reads: a .tar.gz with a manifest, the database and the uploads. */
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type { ReadableStream as NodeWebReadableStream } from 'node:stream/web'
import pg from 'pg'
import { contentTypeForKey, isValidStorageKey, type Storage } from '../app/platform/storage/storage'

export const MANIFEST_FILE = 'manifest.json'
/** Inside the archive: `database/site.db` (SQLite) or `database/site.dump` (pg_dump custom format). */
export const DATABASE_DIR = 'database'
const SQLITE_BACKUP_NAME = 'site.db'
const POSTGRES_DUMP_NAME = 'site.dump'
/** Inside the archive: `database/tables.json`, the same rows as plain values, for a restore into the other database kind. */
const TABLES_NAME = 'tables.json'
/** Inside the archive: `uploads/<storage key>`, one file per stored object, whichever the storage driver. */
export const UPLOADS_DIR = 'uploads'

export interface BackupManifest {
  format: 'charity-site-backup'
  version: 1
  createdAt: string
  database: 'sqlite' | 'postgres'
  /** PostgreSQL only: the schema the tables were dumped from. */
  schema?: string
  /** Migrations applied to the backed-up database, so a restore can refuse a backup from a newer version. */
  migrations: string[]
}

/** Where each part of an archive lies in the folder it is packed from or unpacked into. */
export function archiveParts(dir: string) {
  return {
    manifestFile: path.join(dir, MANIFEST_FILE),
    sqliteBackup: path.join(dir, DATABASE_DIR, SQLITE_BACKUP_NAME),
    postgresDump: path.join(dir, DATABASE_DIR, POSTGRES_DUMP_NAME),
    tablesFile: path.join(dir, DATABASE_DIR, TABLES_NAME),
    uploadsDir: path.join(dir, UPLOADS_DIR),
  }
}

export function databaseName(kind: BackupManifest['database']): string {
  return kind === 'postgres' ? 'PostgreSQL' : 'SQLite'
}

/** Where the app keeps its SQLite database under DATA_DIR (the same path as app/platform/db.server.ts). */
export function sqliteFileIn(dataDir: string): string {
  return path.join(dataDir, 'site.db')
}

/** A command line the script does not understand (exit code 2, as for other Unix commands). */
export class UsageError extends Error {}

export function parseArguments(argv: string[], usage: string): { file: string | undefined; force: boolean } {
  const force = argv.includes('--force')
  const rest = argv.filter((a) => a !== '--force')
  const unknown = rest.find((a) => a.startsWith('-'))
  if (unknown) throw new UsageError(`Unknown option ${unknown}.\n${usage}`)
  if (rest.length > 1) throw new UsageError(`Expected one file name, got ${rest.length}.\n${usage}`)
  return { file: rest[0], force }
}

const INSTALL_HINTS: Record<string, string> = {
  tar: 'Install tar: apt-get install -y tar',
  pg_dump: "Install the PostgreSQL client tools (the server's major version or newer): apt-get install -y postgresql-client",
  pg_restore: "Install the PostgreSQL client tools (the server's major version or newer): apt-get install -y postgresql-client",
}

/** Runs a command to completion; throws with its error output when it fails. */
export function run(command: string, args: string[], env: NodeJS.ProcessEnv = {}): string {
  const result = spawnSync(command, args, {
    env: { ...process.env, ...env },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  })
  if (result.error) {
    const missing = (result.error as NodeJS.ErrnoException).code === 'ENOENT'
    throw new Error(missing ? `${command} was not found. ${INSTALL_HINTS[command] ?? ''}` : result.error.message)
  }
  if (result.status !== 0) {
    throw new Error(`${command} failed (exit code ${result.status}):\n${result.stderr.trim()}`)
  }
  return result.stdout
}

/**
 * The connection for pg_dump and pg_restore: the URL without its password, which goes in
 * PGPASSWORD instead so that it never shows in the process list.
 */
export function postgresCommandConnection(databaseUrl: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const url = new URL(databaseUrl)
  const password = decodeURIComponent(url.password)
  url.password = ''
  // The app's driver reads '+' in the query as a space (form encoding); libpq only knows %20.
  url.search = [...url.searchParams].map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&')
  return { dbname: url.toString(), env: password ? { PGPASSWORD: password } : {} }
}

export async function withPostgres<T>(databaseUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    return await work(client)
  } finally {
    await client.end()
  }
}

/** The schema holding the app's tables: the first one of DATABASE_URL's search_path that exists (usually "public"). */
export async function currentSchema(client: pg.Client): Promise<string> {
  const { rows } = await client.query<{ schema: string | null }>('select current_schema() as schema')
  if (!rows[0].schema) throw new Error('The schema named in the search_path of DATABASE_URL does not exist.')
  return rows[0].schema
}

/** A PostgreSQL identifier, quoted for SQL and for pg_dump's --schema pattern. */
export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`
}

/** Regular files under `dir` (recursively), as paths relative to it with '/' between folders. */
export function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return []
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
}

/** The keys of every stored file (the storage never lists unfinished writes). */
export async function storedKeys(storage: Storage): Promise<string[]> {
  const keys: string[] = []
  for await (const object of storage.list('')) keys.push(object.key)
  return keys
}

/**
 * Copies every stored file into `dir` as `dir/<key>`, one at a time through the storage
 * interface, so local disk and S3 are backed up alike. Returns how many were copied.
 */
export async function copyStoredFiles(storage: Storage, dir: string): Promise<number> {
  let count = 0
  for (const key of await storedKeys(storage)) {
    const object = await storage.get(key)
    // Deleted by the site since it was listed: the database copy, taken first, may still name it.
    if (!object) continue
    const file = path.join(dir, ...key.split('/'))
    fs.mkdirSync(path.dirname(file), { recursive: true })
    await pipeline(Readable.fromWeb(object.body as NodeWebReadableStream<Uint8Array>), fs.createWriteStream(file))
    count++
  }
  return count
}

/** Refuses an archive whose uploads folder holds a name the storage would never have given a file. */
export function assertStorageKeys(keys: string[]): void {
  const invalid = keys.find((key) => !isValidStorageKey(key))
  if (invalid !== undefined) {
    throw new Error(`The archive contains ${UPLOADS_DIR}/${invalid}, which is not an uploaded file: refusing to restore it.`)
  }
}

/**
 * Makes the storage hold exactly the files of `dir` (unpacked from an archive): each one is
 * stored under its key, then stored files the backup does not have are deleted.
 */
export async function replaceStoredFiles(storage: Storage, dir: string, keys: string[]): Promise<void> {
  for (const key of keys) {
    await storage.put(key, fs.createReadStream(path.join(dir, ...key.split('/'))), {
      contentType: contentTypeForKey(key),
    })
  }
  const restored = new Set(keys)
  for (const key of await storedKeys(storage)) {
    if (!restored.has(key)) await storage.delete(key)
  }
}

export function countFiles(count: number): string {
  return `${count} uploaded ${count === 1 ? 'file' : 'files'}`
}

/** Runs a command-line script's main function: a clear message and a non-zero exit code on failure. */
export function runMain(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : String(error))
      process.exit(error instanceof UsageError ? 2 : 1)
    },
  )
}
