import { readContentVersion } from './content-version.server'
import type { Shared } from './shared'

export type { Shared }

/**
 * A value made once per content version and key, then shared by every request until something a
 * public page shows changes (in any process): only for what is the same for every visitor, read
 * on every page or costly to make (the site settings, the calendar feed, the pages' texts). At most `maxKeys`
 * keys are cached, so a key must come from a bounded set. The value is frozen: callers share it.
 */
export function cachedUntilContentChanges<T>(
  make: (key: string) => Promise<T>,
  maxKeys = 4,
): (key: string) => Promise<Shared<T>> {
  let cachedVersion: string | null = null
  const cache = new Map<string, Promise<Shared<T>>>()
  return async (key) => {
    // Read for each value: a read begun before a change would give an older version than the
    // page cache read for the page it keeps.
    const version = await readContentVersion()
    if (version !== cachedVersion) {
      cache.clear()
      cachedVersion = version
    }
    let value = cache.get(key)
    if (!value) {
      if (cache.size >= maxKeys) cache.delete(cache.keys().next().value!)
      value = make(key).then(deepFreeze)
      cache.set(key, value)
      // A failure is not cached: the next request tries again.
      value.catch(() => cache.get(key) === value && cache.delete(key))
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
