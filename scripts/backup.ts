/**
 * `npm run backup -- [file.tar.gz]`: the database and the uploaded files in one archive, taken
 * while the site keeps running. SQLite is copied with SQLite's online backup API; PostgreSQL
 * (DATABASE_URL) with pg_dump's custom format; beside it the same rows as plain values
 * (database/tables.json), so the backup restores into the other kind of database too; the files are read through the storage
 * interface, from local disk or S3 (STORAGE_DRIVER).
 */
import fs from 'node:fs'
import path from 'node:path'
import SQLite from 'better-sqlite3'
import { env } from '../app/platform/env.server'
import { storage, storageLocation } from '../app/platform/storage/index.server'
import {
  DATABASE_DIR,
  MANIFEST_FILE,
  UPLOADS_DIR,
  UsageError,
  archiveParts,
  copyStoredFiles,
  countFiles,
  currentSchema,
  databaseName,
  parseArguments,
  postgresCommandConnection,
  quoteIdentifier,
  run,
  runMain,
  sqliteFileIn,
  withPostgres,
  type BackupManifest,
} from './backup-archive'
import { exportPostgresTables, exportSqliteTables, writeTables } from './backup-tables'

const USAGE = 'Usage: npm run backup -- [backup-file.tar.gz]'

function defaultFileName(): string {
  return `site-backup-${new Date().toISOString().slice(0, 19).replaceAll(':', '-')}.tar.gz`
}

async function backUpSqlite(sqliteFile: string, target: string): Promise<string[]> {
  if (!fs.existsSync(sqliteFile)) throw new Error(`There is no database at ${sqliteFile}: check DATA_DIR.`)
  const database = new SQLite(sqliteFile, { fileMustExist: true })
  try {
    database.pragma('busy_timeout = 10000')
    // A consistent copy even while the server writes: SQLite's online backup API.
    await database.backup(target)
    makeSelfContained(target)
    const hasMigrations = database.prepare("select 1 from sqlite_master where type = 'table' and name = 'kysely_migration'").get()
    if (!hasMigrations) return []
    return database.prepare('select name from kysely_migration order by name').pluck().all() as string[]
  } finally {
    database.close()
  }
}

/**
 * The copy keeps the site's write-ahead-log mode, in which whoever opens it (the export of its rows,
 * the restore) leaves `-wal` and `-shm` files beside it that would be packed too. In rollback-journal
 * mode it is one file, read alone; the server turns the log back on when it opens the restored file.
 */
function makeSelfContained(sqliteFile: string): void {
  const copy = new SQLite(sqliteFile, { fileMustExist: true })
  try {
    copy.pragma('journal_mode = DELETE')
    // Pages freed before deletes were made secure may still hold old rows: the copy keeps none.
    copy.exec('vacuum')
  } finally {
    copy.close()
  }
}

async function backUpPostgres(
  databaseUrl: string,
  target: string,
  tablesFile: string,
): Promise<{ schema: string; migrations: string[] }> {
  return withPostgres(databaseUrl, async (client) => {
    // pg_dump and the plain rows read one snapshot: this transaction's, exported to pg_dump.
    await client.query('begin isolation level repeatable read read only')
    try {
      const { rows: snapshot } = await client.query<{ id: string }>('select pg_export_snapshot() as id')
      const schema = await currentSchema(client)
      const { rows } = await client.query<{ exists: boolean }>('select to_regclass($1) is not null as exists', [
        `${quoteIdentifier(schema)}.kysely_migration`,
      ])
      const migrations = rows[0].exists
        ? (await client.query<{ name: string }>('select name from kysely_migration order by name')).rows.map((r) => r.name)
        : []
      const { dbname, env: pgEnv } = postgresCommandConnection(databaseUrl)
      // The app's schema; owners and grants are left to whoever restores it.
      run(
        'pg_dump',
        [
          '--format=custom',
          `--schema=${quoteIdentifier(schema)}`,
          `--snapshot=${snapshot[0].id}`,
          '--no-owner',
          '--no-privileges',
          `--file=${target}`,
          `--dbname=${dbname}`,
        ],
        pgEnv,
      )
      writeTables(tablesFile, await exportPostgresTables(client, schema))
      return { schema, migrations }
    } finally {
      await client.query('rollback')
    }
  })
}

async function main() {
  const args = parseArguments(process.argv.slice(2), USAGE)
  const file = path.resolve(args.file ?? defaultFileName())
  if (args.force) throw new UsageError(`backup has no --force: it never overwrites a file.\n${USAGE}`)
  if (fs.existsSync(file)) throw new Error(`${file} already exists: choose another name or remove it first.`)
  if (!fs.existsSync(path.dirname(file))) throw new Error(`The folder ${path.dirname(file)} does not exist.`)

  const sqliteFile = sqliteFileIn(env.dataDir)
  // The files are copied here before they are packed: beside the archive, where there is room for it.
  const staging = fs.mkdtempSync(path.join(path.dirname(file), '.site-backup-'))
  const parts = archiveParts(staging)
  const partialFile = `${file}.partial`
  try {
    fs.mkdirSync(path.join(staging, DATABASE_DIR))
    // The database first, then the files: a file uploaded meanwhile is merely extra, never missing.
    const manifest: BackupManifest = {
      format: 'charity-site-backup',
      version: 1,
      createdAt: new Date().toISOString(),
      database: 'sqlite',
      migrations: [],
    }
    if (env.DATABASE_URL) {
      const { schema, migrations } = await backUpPostgres(env.DATABASE_URL, parts.postgresDump, parts.tablesFile)
      Object.assign(manifest, { database: 'postgres', schema, migrations })
    } else {
      manifest.migrations = await backUpSqlite(sqliteFile, parts.sqliteBackup)
      writeTables(parts.tablesFile, exportSqliteTables(parts.sqliteBackup))
    }
    fs.writeFileSync(parts.manifestFile, JSON.stringify(manifest, null, 2) + '\n')

    const fileCount = await copyStoredFiles(storage, parts.uploadsDir)
    fs.mkdirSync(parts.uploadsDir, { recursive: true })
    // Password hashes and visitors' messages are inside: readable by the owner only, from the first byte.
    fs.writeFileSync(partialFile, '', { mode: 0o600 })
    fs.chmodSync(partialFile, 0o600)
    run('tar', ['-czf', partialFile, '-C', staging, MANIFEST_FILE, DATABASE_DIR, UPLOADS_DIR])
    // Renamed only when complete, so a half-written archive never looks like a backup.
    fs.renameSync(partialFile, file)

    const size = (fs.statSync(file).size / 1024 / 1024).toFixed(1)
    const database = databaseName(manifest.database)
    console.log(
      `Backed up the ${database} database and ${countFiles(fileCount)} from ${storageLocation} to ${file} (${size} MB).`,
    )
  } finally {
    fs.rmSync(partialFile, { force: true })
    fs.rmSync(staging, { recursive: true, force: true })
  }
}

runMain(main)
