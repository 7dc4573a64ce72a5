/**
 * A process makes one search at a time; the others wait here, a few at most. On SQLite a
 * search's queries hold the process while they run: twenty at once would keep every other
 * visitor waiting behind all of them, one at a time only behind the one being made.
 */
const WAITING_MAX = 10

export class SearchesBusy extends Error {
  constructor() {
    super('too many searches are waiting')
  }
}

let searching = false
const waiting: Array<() => void> = []

export async function inSearchTurn<T>(search: () => Promise<T>): Promise<T> {
  if (searching) {
    if (waiting.length >= WAITING_MAX) throw new SearchesBusy()
    // The search that finishes hands its turn over: `searching` stays true.
    await new Promise<void>((resolve) => waiting.push(resolve))
  }
  searching = true
  try {
    return await search()
  } finally {
    const next = waiting.shift()
    if (next) next()
    else searching = false
  }
}
