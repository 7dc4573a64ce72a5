import { readContentVersion } from './content-version.server'

/**
 * A value made once per content version and key, then shared by every request until something
 * a public page shows changes (in any process): for answers that are the same for everyone and
 * cost more to make than to keep, such as the whole calendar feed. At most `maxKeys` keys are kept.
 */
export function keptUntilContentChanges<T>(make: (key: string) => Promise<T>, maxKeys = 4): (key: string) => Promise<T> {
  let keptVersion: string | null = null
  const kept = new Map<string, Promise<T>>()
  return async (key) => {
    const version = await readContentVersion()
    if (version !== keptVersion) {
      kept.clear()
      keptVersion = version
    }
    let value = kept.get(key)
    if (!value) {
      if (kept.size >= maxKeys) kept.delete(kept.keys().next().value!)
      value = make(key)
      kept.set(key, value)
      // A failure is not kept: the next request tries again.
      value.catch(() => kept.get(key) === value && kept.delete(key))
    }
    return value
  }
}
