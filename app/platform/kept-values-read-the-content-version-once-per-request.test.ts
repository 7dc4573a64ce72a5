import { RouterContextProvider } from 'react-router'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { markContentChanged, readContentVersion } from './content-version.server'
import { keptPublicItems, keptUntilContentChanges, shareContentVersionPerRequest } from './kept-until-content-changes.server'
import { requestInfoContext } from './request-context'

vi.mock('./content-version.server', async (importOriginal) => {
  const original = await importOriginal<typeof import('./content-version.server')>()
  return { ...original, readContentVersion: vi.fn(original.readContentVersion) }
})
const reads = vi.mocked(readContentVersion)
beforeEach(() => reads.mockClear())

function aRequest(method: string, contentVersion?: string) {
  const context = new RouterContextProvider()
  context.set(requestInfoContext, {
    nonce: 'n',
    clientIp: '192.0.2.1',
    secure: false,
    serverAddress: '127.0.0.1:3000',
    contentVersion,
  })
  return { request: new Request('http://site.test/', { method }), context }
}

/** Runs `work` as the loaders of a request that went through the root middleware. */
async function during<T>(args: ReturnType<typeof aRequest>, work: (context: RouterContextProvider) => Promise<T>): Promise<T> {
  let result: T | undefined
  await shareContentVersionPerRequest(args as never, async () => {
    result = await work(args.context)
    return new Response()
  })
  return result!
}

describe('values kept until the content changes', () => {
  it('read the content version once for a page, however many the page uses', async () => {
    const made: string[] = []
    const kept = keptUntilContentChanges(async (key) => {
      made.push(key)
      return { key, items: [key] }
    })
    const values = await during(aRequest('GET'), (context) =>
      Promise.all(['a', 'b', 'c', 'd'].map((key) => kept(context, key)).concat(kept(context, 'a'))),
    )
    expect(values.map((v) => v.key)).toEqual(['a', 'b', 'c', 'd', 'a'])
    expect(reads).toHaveBeenCalledTimes(1)
    expect(made).toEqual(['a', 'b', 'c', 'd'])

    // The next page shares them until something changes.
    expect(await during(aRequest('GET'), (context) => kept(context, 'a'))).toBe(values[0])
    await markContentChanged()
    const fresh = await during(aRequest('GET'), (context) => kept(context, 'a'))
    expect(fresh).not.toBe(values[0])
    expect(fresh).toEqual(values[0])
    expect(reads).toHaveBeenCalledTimes(3)
  })

  it('use the version the page cache read for the page it keeps, without reading it again', async () => {
    const kept = keptUntilContentChanges(async (key) => ({ key }))
    const current = await readContentVersion()
    reads.mockClear()
    const value = await during(aRequest('GET', current), (context) => kept(context, 'a'))
    expect(reads).not.toHaveBeenCalled()
    expect(await during(aRequest('GET'), (context) => kept(context, 'a'))).toBe(value)
  })

  it("read it afresh for each value of a form's request, whose action may change what its loaders show", async () => {
    const kept = keptUntilContentChanges(async (key) => ({ key }))
    await during(aRequest('POST'), (context) => Promise.all([kept(context, 'a'), kept(context, 'b')]))
    expect(reads).toHaveBeenCalledTimes(2)
  })

  it('are frozen, keep at most their number of keys, and never keep a failure', async () => {
    let made = 0
    let failing = true
    const kept = keptUntilContentChanges(async (key) => {
      made++
      if (key === 'bad' && failing) throw new Error('the database is down')
      return { key, list: [{ name: key }] }
    }, 2)
    const a = await kept(null, 'a')
    expect(() => (a.list as { name: string }[]).push({ name: 'x' })).toThrow(TypeError)
    expect(() => ((a.list[0] as { name: string }).name = 'x')).toThrow(TypeError)
    await expect(kept(null, 'bad')).rejects.toThrow('the database is down')
    failing = false
    expect((await kept(null, 'bad')).key).toBe('bad')
    await kept(null, 'c')
    expect(made).toBe(4)
    // 'a' made way for the newer keys.
    expect(await kept(null, 'a')).not.toBe(a)
    expect(made).toBe(5)
  })

  it('keep public items by address: a made-up address makes nothing, and a change brings new items and drops old ones', async () => {
    let published = ['bread', 'soap']
    const listed: number[] = []
    const made: string[] = []
    const kept = keptPublicItems(
      async () => {
        listed.push(1)
        return published
      },
      async (key) => {
        made.push(key)
        return { key }
      },
    )
    const bread = await kept(null, 'public', 'bread')
    expect(bread).toEqual({ key: 'bread' })
    expect(await kept(null, 'public', 'no-such-thing')).toBeNull()
    expect(await kept(null, 'public', 'bread')).toBe(bread)
    // What else the item depends on goes into its key; the address alone says whether it is public.
    expect(await kept(null, 'public', 'soap', 'in-a-list soap')).toEqual({ key: 'in-a-list soap' })
    expect(made).toEqual(['bread', 'in-a-list soap'])
    expect(listed).toHaveLength(1)

    published = ['soap', 'jam']
    await markContentChanged()
    expect(await kept(null, 'public', 'bread')).toBeNull()
    expect(await kept(null, 'public', 'jam')).toEqual({ key: 'jam' })
    expect(listed).toHaveLength(2)
    expect(made).toEqual(['bread', 'in-a-list soap', 'jam'])
  })
})
