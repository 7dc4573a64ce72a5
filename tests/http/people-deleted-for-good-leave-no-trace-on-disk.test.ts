import { execFileSync } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { sql } from 'kysely'
import { afterAll, describe, expect, it } from 'vitest'
import { db } from '~/platform/db.server'
import { deleteSubscriber, inviteSubscriber } from '~/modules/newsletter/newsletter.service.server'
import { runBackupScript } from '../setup/backup-scripts'

const kind = process.env.TEST_DATABASE === 'postgres' ? 'postgres' : 'sqlite'
const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'site-deleted-for-good-'))
// The database tests/setup/database.ts migrated for this file is the site being backed up.
const sourceEnv = {
  DATA_DIR: process.env.DATA_DIR!,
  ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
}

afterAll(() => {
  fs.rmSync(workDir, { recursive: true, force: true })
})

describe(`a person deleted for good (${kind})`, { timeout: 60_000 }, () => {
  it('is in neither the database file nor a backup made after, while the people kept are', async () => {
    const gone = `gone-${crypto.randomUUID()}@example.org`
    const kept = `kept-${crypto.randomUUID()}@example.org`
    for (const email of [gone, kept]) {
      await inviteSubscriber({ email, firstName: 'Zoë', topics: ['news'] }, 'http://localhost')
    }
    const row = await db.selectFrom('subscribers').select('id').where('email', '=', gone).executeTakeFirstOrThrow()
    expect(await deleteSubscriber(row.id)).toBe(true)

    const bytesOf = (dir: string) =>
      Buffer.concat(
        fs
          .readdirSync(dir, { recursive: true, withFileTypes: true })
          .filter((entry) => entry.isFile())
          .map((entry) => fs.readFileSync(path.join(entry.parentPath, entry.name))),
      )
    if (kind === 'sqlite') {
      // What the write-ahead log held goes into the file: the file alone is what a copy of the disk finds.
      await sql`pragma wal_checkpoint(TRUNCATE)`.execute(db)
      const file = bytesOf(process.env.DATA_DIR!)
      expect(file.includes(kept)).toBe(true)
      expect(file.includes(gone)).toBe(false)
    }
    const afterArchive = path.join(workDir, 'after-delete.tar.gz')
    const made = await runBackupScript('backup', [afterArchive], sourceEnv)
    expect(made.code, made.output).toBe(0)
    const unpacked = path.join(workDir, 'after-delete')
    fs.mkdirSync(unpacked)
    execFileSync('tar', ['-xzf', afterArchive, '-C', unpacked])
    const backup = bytesOf(path.join(unpacked, 'database'))
    expect(backup.includes(kept)).toBe(true)
    expect(backup.includes(gone)).toBe(false)
  })
})
