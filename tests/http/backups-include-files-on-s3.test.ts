import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createS3Storage } from '~/platform/storage/s3.server'
import type { Storage } from '~/platform/storage/storage'
import { runBackupScript } from '../setup/backup-scripts'
import { s3Env, startS3Server } from '../setup/s3-server'

const kind = process.env.TEST_DATABASE === 'postgres' ? 'postgres' : 'sqlite'
const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'site-backup-test-'))
const archive = path.join(workDir, 'site.tar.gz')
const s3 = await startS3Server()
afterAll(async () => {
  await s3.stop()
  fs.rmSync(workDir, { recursive: true, force: true })
})

// The database tests/setup/database.ts migrated for this file, with its files in a bucket.
const databaseEnv = {
  DATA_DIR: process.env.DATA_DIR!,
  ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
}

async function contentsOf(storage: Storage): Promise<Record<string, string>> {
  const files: Record<string, string> = {}
  for await (const { key } of storage.list('')) {
    const object = await storage.get(key)
    files[key] = crypto
      .createHash('sha256')
      .update(Buffer.from(await new Response(object!.body).arrayBuffer()))
      .digest('hex')
  }
  return files
}

describe(`backup and restore of a site whose files are on S3 (${kind})`, { timeout: 90_000 }, () => {
  it('backs up the files in the bucket and restores them byte for byte, replacing what changed only with --force', async () => {
    const bucket = await s3.createBucket()
    const siteEnv = { ...databaseEnv, ...s3Env(bucket) }
    const files = createS3Storage(bucket)
    await files.put('images/3f2c0b1e-400.webp', crypto.randomBytes(3000), { contentType: 'image/webp' })
    await files.put('images/3f2c0b1e-800.jpg', crypto.randomBytes(7000), { contentType: 'image/jpeg' })
    await files.put('videos/9a1d7c44.mp4', crypto.randomBytes(20000), { contentType: 'video/mp4' })
    const backedUp = await contentsOf(files)

    const backup = await runBackupScript('backup', [archive], siteEnv)
    expect(backup.output).toContain(`3 uploaded files from the S3 bucket "${bucket.bucket}"`)
    expect(backup.code).toBe(0)

    // After the backup, one file is lost and another one appears.
    await files.delete('images/3f2c0b1e-800.jpg')
    await files.put('images/added-later.png', Buffer.from('not in the backup'), { contentType: 'image/png' })

    const refused = await runBackupScript('restore', [archive], siteEnv)
    expect(refused.code).toBe(1)
    expect(refused.output).toContain(`3 files in the S3 bucket "${bucket.bucket}"`)
    expect(await files.stat('images/3f2c0b1e-800.jpg')).toBeNull()

    const restored = await runBackupScript('restore', [archive, '--force'], siteEnv)
    expect(restored.output).toContain('Restored the backup')
    expect(restored.code).toBe(0)
    expect(await contentsOf(files)).toEqual(backedUp)

    // As on a new machine: an empty bucket gets the same files.
    const newBucket = await s3.createBucket()
    const intoNew = await runBackupScript('restore', [archive, '--force'], { ...databaseEnv, ...s3Env(newBucket) })
    expect(intoNew.output).toContain(`3 uploaded files into the S3 bucket "${newBucket.bucket}"`)
    expect(intoNew.code).toBe(0)
    expect(await contentsOf(createS3Storage(newBucket))).toEqual(backedUp)
  })
})
