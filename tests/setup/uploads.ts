import fs from 'node:fs'
import path from 'node:path'
import { beforeEach } from 'vitest'
import { env } from '~/platform/env.server'

/** The local-disk storage of this test file's site (tests/setup/database.ts sets DATA_DIR). */
const uploadsDir = path.join(env.dataDir, 'uploads')

/** Starts each test of the calling file with no uploaded files. */
export function emptyUploadsBeforeEach(): void {
  beforeEach(() => fs.rmSync(uploadsDir, { recursive: true, force: true }))
}

/** The names of the files a test left in storage, sorted. */
export function storedFiles(): string[] {
  if (!fs.existsSync(uploadsDir)) return []
  return fs
    .readdirSync(uploadsDir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => e.name)
    .sort()
}
