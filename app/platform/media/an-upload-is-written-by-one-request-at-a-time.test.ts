import crypto from 'node:crypto'
import { expect, it, vi } from 'vitest'
import { db } from '../db.server'
import { databaseLocker } from './upload-locks.server'

const TIMEOUT = new Error('locked')
const locker = databaseLocker({ timeout: TIMEOUT })
const wantedAt = async (uploadId: string) =>
  (await db.selectFrom('uploadLocks').select('wantedAt').where('uploadId', '=', uploadId).executeTakeFirst())?.wantedAt

it('asks the holder once and takes the upload when it lets go', async () => {
  const uploadId = crypto.randomUUID()
  const first = locker.newLock(uploadId)
  const release = vi.fn(() => first.unlock())
  await first.lock(new AbortController().signal, release)

  const second = locker.newLock(uploadId)
  const taken = second.lock(new AbortController().signal, async () => {})
  await expect.poll(() => wantedAt(uploadId)).toBeTruthy()
  // The holder sees the request at its next renewal and ends its own request.
  await expect.poll(() => release.mock.calls.length, { timeout: 5_000 }).toBe(1)
  await taken
  expect(await wantedAt(uploadId)).toBeNull()
  await second.unlock()
  expect(await db.selectFrom('uploadLocks').where('uploadId', '=', uploadId).select('holder').execute()).toEqual([])
})

it('stops a holder that finds its lock taken over after a long pause', async () => {
  const uploadId = crypto.randomUUID()
  const paused = locker.newLock(uploadId)
  const release = vi.fn(async () => {})
  await paused.lock(new AbortController().signal, release)
  // Its lock ran out meanwhile (a process stopped in a debugger, a machine that slept) and another took it.
  await db
    .updateTable('uploadLocks')
    .set({ expiresAt: new Date(0).toISOString() })
    .where('uploadId', '=', uploadId)
    .execute()
  const other = locker.newLock(uploadId)
  await other.lock(new AbortController().signal, async () => {})

  await expect.poll(() => release.mock.calls.length, { timeout: 5_000 }).toBe(1)
  await paused.unlock()
  // The other request's lock is untouched by the first one letting go.
  expect(await db.selectFrom('uploadLocks').where('uploadId', '=', uploadId).select('holder').execute()).toHaveLength(1)
  await other.unlock()
})

it('gives up with the locked error when the holder never lets go', async () => {
  const uploadId = crypto.randomUUID()
  const holder = locker.newLock(uploadId)
  await holder.lock(new AbortController().signal, async () => {})
  const waiting = new AbortController()
  const attempt = locker.newLock(uploadId).lock(waiting.signal, async () => {})
  waiting.abort()
  await expect(attempt).rejects.toBe(TIMEOUT)
  await holder.unlock()
})
