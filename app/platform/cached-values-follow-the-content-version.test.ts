import { describe, expect, it, vi } from 'vitest'
import { markContentChanged, readContentVersion } from './content-version.server'
import { cachedUntilContentChanges } from './content-cache.server'

vi.mock('./content-version.server', async (importOriginal) => {
  const original = await importOriginal<typeof import('./content-version.server')>()
  return { ...original, readContentVersion: vi.fn(original.readContentVersion) }
})
const reads = vi.mocked(readContentVersion)

describe('values cached until the content changes', () => {
  it('are made once per key and shared until something changes', async () => {
    const made: string[] = []
    const cached = cachedUntilContentChanges(async (key) => {
      made.push(key)
      return { key, items: [key] }
    })
    reads.mockClear()
    const [a, b, again] = await Promise.all([cached('a'), cached('b'), cached('a')])
    expect(again).toBe(a)
    // Each value reads the version itself: none is older than the page that shows it.
    expect(reads).toHaveBeenCalledTimes(3)
    expect(await cached('b')).toBe(b)
    expect(made).toEqual(['a', 'b'])

    await markContentChanged()
    const fresh = await cached('a')
    expect(fresh).not.toBe(a)
    expect(fresh).toEqual(a)
    expect(made).toEqual(['a', 'b', 'a'])
  })

  it('are frozen, keep at most their number of keys, and never keep a failure', async () => {
    let made = 0
    let failing = true
    const cached = cachedUntilContentChanges(async (key) => {
      made++
      if (key === 'bad' && failing) throw new Error('the database is down')
      return { key, list: [{ name: key }] }
    }, 2)
    const a = await cached('a')
    expect(() => (a.list as { name: string }[]).push({ name: 'x' })).toThrow(TypeError)
    expect(() => ((a.list[0] as { name: string }).name = 'x')).toThrow(TypeError)
    await expect(cached('bad')).rejects.toThrow('the database is down')
    failing = false
    expect((await cached('bad')).key).toBe('bad')
    await cached('c')
    expect(made).toBe(4)
    // 'a' made way for the newer keys.
    expect(await cached('a')).not.toBe(a)
    expect(made).toBe(5)
  })
})
