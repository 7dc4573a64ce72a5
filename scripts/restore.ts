/**
 * `npm run restore -- <file.tar.gz> [--force]`: puts a backup made by `npm run backup` back in
 * place: the database (SQLite under DATA_DIR, or PostgreSQL at DATABASE_URL) and the uploads,
 * written through the storage interface (local disk or S3, as STORAGE_DRIVER says).
 * A backup of the other database kind is converted: the migrations make the tables, which are
 * filled with the backup's plain rows (database/tables.json).
 * Refuses to replace existing data unless --force is given; stop the server first.
 */
import fs from 'node:fs'
import path from 'node:path'
import SQLite from 'better-sqlite3'
import type pg from 'pg'
import { migrations } from '../db/migrations'
import { env } from '../app/platform/env.server'
import { storage, storageLocation } from '../app/platform/storage/index.server'
import {
  UsageError,
  archiveParts,
  assertStorageKeys,
  countFiles,
  currentSchema,
  databaseName,
  filesUnder,
  parseArguments,
  postgresCommandConnection,
  quoteIdentifier,
  replaceStoredFiles,
  run,
  runMain,
  sqliteFileIn,
  storedKeys,
  withPostgres,
  type BackupManifest,
} from './backup-archive'
import { buildSqliteDatabase, readTables, restoreTablesIntoPostgres } from './backup-tables'

const USAGE = 'Usage: npm run restore -- <backup-file.tar.gz> [--force]'

/** What the target already holds, described for the refusal message; empty when there is nothing. */
async function describeExistingData(): Promise<string[]> {
  const sqliteFile = sqliteFileIn(env.dataDir)
  const found: string[] = []
  if (env.DATABASE_URL) {
    const { schema, tableCount } = await inspectPostgres(env.DATABASE_URL)
    if (tableCount > 0) found.push(`${tableCount} tables in schema "${schema}" of the PostgreSQL database`)
  } else if (fs.existsSync(sqliteFile)) {
    const database = new SQLite(sqliteFile, { fileMustExist: true })
    const tableCount = database
      .prepare("select count(*) from sqlite_master where type = 'table' and name not like 'sqlite\\_%' escape '\\'")
      .pluck()
      .get() as number
    database.close()
    if (tableCount > 0) found.push(`${tableCount} tables in ${sqliteFile}`)
  }
  const fileCount = (await storedKeys(storage)).length
  if (fileCount > 0) found.push(`${fileCount} files in ${storageLocation}`)
  return found
}

/** The schema the app uses at DATABASE_URL (its search_path) and how many tables it holds. */
function inspectPostgres(databaseUrl: string) {
  return withPostgres(databaseUrl, async (client) => {
    const schema = await currentSchema(client)
    const { rows } = await client.query<{ count: string }>(
      "select count(*) from information_schema.tables where table_schema = $1 and table_type = 'BASE TABLE'",
      [schema],
    )
    return { schema, tableCount: Number(rows[0].count) }
  })
}

/** Refuses links and device files: a restore only ever writes plain files and folders. */
function assertOnlyPlainFiles(dir: string) {
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() && !entry.isDirectory()) {
      const name = path.join(path.relative(dir, entry.parentPath), entry.name)
      throw new Error(`The archive contains ${name}, which is not a plain file: refusing to restore it.`)
    }
  }
}

function readManifest(file: string): BackupManifest {
  const manifest = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<BackupManifest>) : {}
  if (manifest.format !== 'charity-site-backup' || manifest.version !== 1) {
    throw new Error('This file is not a backup made by `npm run backup` (no manifest of a known version).')
  }
  return manifest as BackupManifest
}

async function restoreSqlite(backupFile: string, sqliteFile: string) {
  const backup = new SQLite(backupFile, { fileMustExist: true })
  try {
    const check = backup.pragma('quick_check', { simple: true })
    if (check !== 'ok') throw new Error(`The database in the backup is damaged: ${String(check)}`)
    // Written through SQLite, so an existing file's write-ahead log stays consistent with it.
    fs.mkdirSync(path.dirname(sqliteFile), { recursive: true })
    await backup.backup(sqliteFile)
  } finally {
    backup.close()
  }
}

/**
 * pg_restore recreates the tables in the schema they were dumped from. When the target uses
 * another schema, they are restored under the old name and the schema is then renamed.
 */
async function restorePostgres(databaseUrl: string, dumpFile: string, backupSchema: string, staging: string) {
  const { schema: targetSchema, tableCount } = await inspectPostgres(databaseUrl)
  const renamed = backupSchema !== targetSchema
  const { dbname, env: pgEnv } = postgresCommandConnection(databaseUrl)

  await withPostgres(databaseUrl, async (client) => {
    if (renamed) {
      const clash = await client.query('select 1 from pg_namespace where nspname = $1', [backupSchema])
      if (clash.rowCount) {
        throw new Error(
          `The backup's tables belong to schema "${backupSchema}", which already exists in the target database. ` +
            'Point DATABASE_URL at that schema, or remove it, and run again.',
        )
      }
      await client.query(`create schema ${quoteIdentifier(backupSchema)}`)
    } else if (tableCount > 0) {
      await inTransaction(client, [
        `drop schema ${quoteIdentifier(targetSchema)} cascade`,
        `create schema ${quoteIdentifier(targetSchema)}`,
      ])
    }
  })

  // The schema exists by now; restore everything but its creation.
  const listFile = path.join(staging, 'restore.list')
  const entries = run('pg_restore', ['--list', dumpFile]).split('\n')
  fs.writeFileSync(listFile, entries.filter((line) => !/^\d+; \d+ \d+ (SCHEMA - |COMMENT - SCHEMA )/.test(line)).join('\n'))
  try {
    run(
      'pg_restore',
      [
        '--single-transaction',
        '--exit-on-error',
        '--no-owner',
        '--no-privileges',
        `--use-list=${listFile}`,
        `--dbname=${dbname}`,
        dumpFile,
      ],
      pgEnv,
    )
  } catch (error) {
    if (renamed) await withPostgres(databaseUrl, (c) => c.query(`drop schema if exists ${quoteIdentifier(backupSchema)} cascade`))
    throw error
  }

  if (renamed) {
    await withPostgres(databaseUrl, (client) =>
      inTransaction(client, [
        `drop schema ${quoteIdentifier(targetSchema)} cascade`,
        `alter schema ${quoteIdentifier(backupSchema)} rename to ${quoteIdentifier(targetSchema)}`,
      ]),
    )
  }
}

async function inTransaction(client: pg.Client, statements: string[]) {
  await client.query('begin')
  try {
    for (const statement of statements) await client.query(statement)
    await client.query('commit')
  } catch (error) {
    await client.query('rollback')
    throw error
  }
}

async function main() {
  const args = parseArguments(process.argv.slice(2), USAGE)
  if (!args.file) throw new UsageError(USAGE)
  const file = path.resolve(args.file)
  if (!fs.existsSync(file)) throw new Error(`There is no file ${file}.`)

  const existing = await describeExistingData()
  if (existing.length > 0 && !args.force) {
    throw new Error(
      `The target already holds data: ${existing.join('; ')}.\n` +
        'A restore replaces all of it. Stop the server, then run again with --force.',
    )
  }

  fs.mkdirSync(env.dataDir, { recursive: true })
  // Unpacked beside the data, where there is room for it.
  const staging = fs.mkdtempSync(path.join(env.dataDir, '.restore-'))
  try {
    run('tar', ['-xzf', file, '-C', staging, '--no-same-owner'])
    assertOnlyPlainFiles(staging)
    const parts = archiveParts(staging)
    const manifest = readManifest(parts.manifestFile)
    const targetKind = env.DATABASE_URL ? 'postgres' : 'sqlite'
    // A backup of the other database kind is restored from its plain rows (older backups have none).
    const converting = manifest.database !== targetKind
    if (converting && !fs.existsSync(parts.tablesFile)) {
      throw new Error(
        `This backup holds a ${databaseName(manifest.database)} database, but the target is ` +
          `${targetKind === 'postgres' ? 'PostgreSQL (DATABASE_URL is set)' : 'SQLite (DATABASE_URL is not set)'}. ` +
          'It was made by an older version of the site, which did not write the rows needed to convert it.',
      )
    }
    const unknown = manifest.migrations.filter((name) => !Object.hasOwn(migrations, name))
    if (unknown.length > 0) {
      throw new Error(
        `This backup comes from a newer version of the site (unknown migrations: ${unknown.join(', ')}). ` +
          'Upgrade this installation first, then restore.',
      )
    }

    const fileKeys = filesUnder(parts.uploadsDir)
    assertStorageKeys(fileKeys)

    if (converting && targetKind === 'postgres') {
      await restoreTablesIntoPostgres(env.DATABASE_URL!, readTables(parts.tablesFile), manifest.migrations)
    } else if (converting) {
      const converted = path.join(staging, 'converted.db')
      await buildSqliteDatabase(converted, readTables(parts.tablesFile), manifest.migrations)
      await restoreSqlite(converted, sqliteFileIn(env.dataDir))
    } else if (manifest.database === 'postgres') {
      await restorePostgres(env.DATABASE_URL!, parts.postgresDump, manifest.schema!, staging)
    } else {
      await restoreSqlite(parts.sqliteBackup, sqliteFileIn(env.dataDir))
    }
    await replaceStoredFiles(storage, parts.uploadsDir, fileKeys)
    console.log(
      `Restored the backup of ${manifest.createdAt}: the ${databaseName(manifest.database)} database` +
        `${converting ? ` (into ${databaseName(targetKind)})` : ''} and ` +
        `${countFiles(fileKeys.length)} into ${storageLocation}. Start the server: it applies any newer migrations.`,
    )
  } finally {
    fs.rmSync(staging, { recursive: true, force: true })
  }
}

runMain(main)
