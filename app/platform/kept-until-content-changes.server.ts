import { createContext, type MiddlewareFunction, type RouterContextProvider } from 'react-router'
import { readContentVersion } from './content-version.server'
import { requestInfoContext } from './request-context'
import type { Audience } from './publication.server'
import type { Shared } from './shared'

export type { Shared }

// Without the middleware (a loader called on its own, a script), each kept value reads the version afresh.
const contentVersionContext = createContext<() => Promise<string>>(() => readContentVersion())

/**
 * Root middleware: the first kept value a page asks for reads the content version, and the
 * others of that request share the read (the page cache's own read when it makes the page). A
 * form's request reads it afresh each time: its action may change what its loaders then show.
 */
export const shareContentVersionPerRequest: MiddlewareFunction<Response> = ({ request, context }, next) => {
  if (request.method === 'GET' || request.method === 'HEAD') {
    const known = context.get(requestInfoContext).contentVersion
    let version: Promise<string> | undefined = known === undefined ? undefined : Promise.resolve(known)
    context.set(contentVersionContext, () => (version ??= readContentVersion()))
  }
  return next()
}

/** Where a kept value finds the content version: a request's context, or none (read afresh). */
export type VersionSource = Readonly<RouterContextProvider> | null

/**
 * A value made once per content version and key, then shared by every request until something
 * a public page shows changes (in any process): for answers that are the same for every visitor
 * and cost more to make than to keep, such as the site settings or the whole calendar feed.
 * Never for what depends on the visitor (signed in, a preview link). At most `maxKeys` keys are
 * kept, so a key must come from a bounded set. The value is frozen: callers share it.
 */
export function keptUntilContentChanges<T>(
  make: (key: string) => Promise<T>,
  maxKeys = 4,
): (from: VersionSource, key: string) => Promise<Shared<T>> {
  let keptVersion: string | null = null
  const kept = new Map<string, Promise<Shared<T>>>()
  return async (from, key) => {
    const version = await (from ? from.get(contentVersionContext)() : readContentVersion())
    if (version !== keptVersion) {
      kept.clear()
      keptVersion = version
    }
    let value = kept.get(key)
    if (!value) {
      if (kept.size >= maxKeys) kept.delete(kept.keys().next().value!)
      value = make(key).then(deepFreeze)
      kept.set(key, value)
      // A failure is not kept: the next request tries again.
      value.catch(() => kept.get(key) === value && kept.delete(key))
    }
    return value
  }
}

function deepFreeze<T>(value: T): Shared<T> {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const inner of Object.values(value)) deepFreeze(inner)
  }
  return value as Shared<T>
}

/**
 * Values worked out from a kept value (one of `keptUntilContentChanges`), kept with it: gone when
 * it is, so they change with the content too. At most `maxKeys` per kept value, the oldest
 * dropped first, so a key may come from what a visitor asks for (a date, the address used).
 * Frozen, like the kept value: callers share them.
 */
export function keptWith<T>(maxKeys: number): (owner: object, key: string, make: () => T) => Shared<T> {
  const byOwner = new WeakMap<object, Map<string, Shared<T>>>()
  return (owner, key, make) => {
    let kept = byOwner.get(owner)
    if (!kept) byOwner.set(owner, (kept = new Map()))
    if (kept.has(key)) return kept.get(key)!
    if (kept.size >= maxKeys) kept.delete(kept.keys().next().value!)
    const value = deepFreeze(make())
    kept.set(key, value)
    return value
  }
}

/**
 * Items by their address (an article, a photo, a product, an event): for visitors each is made
 * once per content version and shared, since its query, pictures and Markdown were most of its
 * page's own work; for a preview link it is read afresh. The addresses of all public items are
 * read once per content version, so a made-up address costs no query and takes no place; at most
 * `maxKeys` items are kept, the oldest dropped first.
 */
export function keptPublicItems<T>(
  publicAddresses: () => Promise<readonly string[]>,
  read: (key: string, audience: Audience) => Promise<T | null>,
  maxKeys = 32,
): (from: VersionSource, audience: Audience, address: string, key?: string) => Promise<Shared<T> | null> {
  const addressesKept = keptUntilContentChanges(async (): Promise<ReadonlySet<string>> => new Set(await publicAddresses()), 1)
  const itemsKept = keptUntilContentChanges((key) => read(key, 'public'), maxKeys)
  // `key`: the address, with whatever else the item depends on (a time zone, a list it was opened from).
  return async (from, audience, address, key = address) => {
    if (audience !== 'public') return read(key, audience) as Promise<Shared<T> | null>
    return (await addressesKept(from, '')).has(address) ? ((await itemsKept(from, key)) as Shared<T> | null) : null
  }
}
