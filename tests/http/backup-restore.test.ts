import { execFileSync } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import SQLite from 'better-sqlite3'
import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { migrations } from '../../db/migrations'
import { currentSchema, withPostgres } from '../../scripts/backup-archive'
import { exportPostgresTables, exportSqliteTables, readTables, type PortableTables } from '../../scripts/backup-tables'
import { db, nowIso } from '~/platform/db.server'
import { storage } from '~/platform/storage/index.server'
import { createLocalDiskStorage } from '~/platform/storage/local-disk.server'
import { runBackupScript } from '../setup/backup-scripts'
import { createTestDatabase, type TestDatabase } from '../setup/test-database'

const kind = process.env.TEST_DATABASE === 'postgres' ? 'postgres' : 'sqlite'
const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'site-backup-test-'))
const archive = path.join(workDir, 'site.tar.gz')
// The database tests/setup/database.ts migrated for this file is the site being backed up.
const sourceEnv = {
  DATA_DIR: process.env.DATA_DIR!,
  ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
}
let target: TestDatabase | undefined

afterAll(async () => {
  await target?.drop()
  fs.rmSync(workDir, { recursive: true, force: true })
})

/** Reads one setting straight from a restored database, without the app's connection. */
async function readSetting(
  env: TestDatabase['env'],
  key: string,
): Promise<{ value: string; migrationCount: number } | undefined> {
  if (!env.DATABASE_URL) {
    const database = new SQLite(path.join(env.DATA_DIR, 'site.db'), { readonly: true })
    try {
      const row = database.prepare('select value from settings where key = ?').get(key) as { value: string } | undefined
      const migrationCount = database.prepare('select count(*) from kysely_migration').pluck().get() as number
      return row && { value: row.value, migrationCount }
    } finally {
      database.close()
    }
  }
  const client = new pg.Client({ connectionString: env.DATABASE_URL })
  await client.connect()
  try {
    const { rows } = await client.query<{ value: string }>('select value from settings where key = $1', [key])
    const count = await client.query<{ count: string }>('select count(*) from kysely_migration')
    return rows[0] && { value: rows[0].value, migrationCount: Number(count.rows[0].count) }
  } finally {
    await client.end()
  }
}

/** Every row of a restored database, as the backup writes them, in an order that does not depend on storage. */
async function restoredTables(env: TestDatabase['env']): Promise<PortableTables> {
  const tables = env.DATABASE_URL
    ? await withPostgres(env.DATABASE_URL, async (client) => exportPostgresTables(client, await currentSchema(client)))
    : exportSqliteTables(path.join(env.DATA_DIR, 'site.db'))
  return sorted(tables)
}

function sorted({ tables }: PortableTables): PortableTables {
  const byText = (a: unknown, b: unknown) => JSON.stringify(a).localeCompare(JSON.stringify(b))
  return { tables: tables.map((table) => ({ ...table, rows: table.rows.toSorted(byText) })).sort(byText) }
}

// Each test runs the real commands as child processes, several seconds on a busy machine.
describe(`backup and restore (${kind})`, { timeout: 60_000 }, () => {
  const settingKey = 'backupCheck'
  const settingValue = `kept ${crypto.randomUUID()}`
  const fileKey = `images/${crypto.randomUUID()}.png`
  const fileBytes = crypto.randomBytes(4096)

  it('refuses to restore over a site that already has data, naming what is there', async () => {
    await db.insertInto('settings').values({ key: settingKey, value: settingValue, updatedAt: nowIso() }).execute()
    await storage.put(fileKey, fileBytes, { contentType: 'image/png' })

    const backup = await runBackupScript('backup', [archive], sourceEnv)
    expect(backup.output).toContain('Backed up the')
    expect(backup.code).toBe(0)

    const restore = await runBackupScript('restore', [archive], sourceEnv)
    expect(restore.code).toBe(1)
    expect(restore.output).toContain('The target already holds data')
    expect(restore.output).toContain('--force')
  })

  it('restores the database and the uploaded files into an empty site, and replaces data only with --force', async () => {
    if (kind === 'postgres') {
      // As on a new machine: the original schema is gone, so the restored one can take the target's name.
      const { POSTGRES_ADMIN_URL } = await import('../setup/test-database')
      const schema = new URL(sourceEnv.DATABASE_URL!).searchParams.get('options')!.replace('-c search_path=', '')
      const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL })
      await client.connect()
      await client.query(`drop schema ${schema} cascade`)
      await client.end()
    }
    target = await createTestDatabase(kind)

    const restore = await runBackupScript('restore', [archive], target.env)
    expect(restore.output).toContain('Restored the backup')
    expect(restore.code).toBe(0)

    expect(await readSetting(target.env, settingKey)).toEqual({
      value: settingValue,
      migrationCount: Object.keys(migrations).length,
    })
    const restoredStorage = createLocalDiskStorage(path.join(target.env.DATA_DIR, 'uploads'))
    const file = await restoredStorage.get(fileKey)
    expect(file).not.toBeNull()
    expect(Buffer.from(await new Response(file!.body).arrayBuffer())).toEqual(fileBytes)

    const again = await runBackupScript('restore', [archive], target.env)
    expect(again.code).toBe(1)
    const forced = await runBackupScript('restore', [archive, '--force'], target.env)
    expect(forced.output).toContain('Restored the backup')
    expect(forced.code).toBe(0)
    expect((await readSetting(target.env, settingKey))?.value).toBe(settingValue)
  })

  it('packs the database without stale -wal or -shm files, and the restore holds exactly its rows', async () => {
    const database = execFileSync('tar', ['-tzf', archive], { encoding: 'utf8' })
      .split('\n')
      .filter((entry) => entry.startsWith('database/') && entry !== 'database/')
      .sort()
    expect(database).toEqual(['database/tables.json', kind === 'sqlite' ? 'database/site.db' : 'database/site.dump'].sort())

    const unpacked = path.join(workDir, 'unpacked')
    fs.mkdirSync(unpacked)
    execFileSync('tar', ['-xzf', archive, '-C', unpacked])
    const backedUp = readTables(path.join(unpacked, 'database', 'tables.json'))
    expect(backedUp.tables.find((t) => t.name === 'settings')!.rows.some((row) => row.includes(settingValue))).toBe(true)
    // The SQLite file read alone, as a restore finds it, holds every row.
    if (kind === 'sqlite') expect(exportSqliteTables(path.join(unpacked, 'database', 'site.db'))).toEqual(backedUp)
    expect(await restoredTables(target!.env)).toEqual(sorted(backedUp))
  })
})
