/**
 * The site's search with 10,000 articles: the demo site, restarted after 10,000 articles of about
 * 150 words each were added to its SQLite file (the triggers index them as they go in), then
 * /search asked for a word most articles have, a word few have, and two words, each with its p99.
 * `npm run bench:search`; BENCH_DURATION (seconds, default 10) per question, BENCH_CONNECTIONS
 * (default 10).
 */
import crypto from 'node:crypto'
import path from 'node:path'
import autocannon from 'autocannon'
import SQLite from 'better-sqlite3'
import { buildApp, startBenchServer } from './bench-server'
import { printTable } from './print-table'

const duration = Number(process.env.BENCH_DURATION ?? 10)
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10)
const ARTICLES = 10_000
const WORDS_PER_ARTICLE = 150

const COMMON = ['community', 'family', 'support', 'volunteers', 'children', 'food', 'school', 'church', 'market', 'health']
const RARE = Array.from({ length: 2_000 }, (_, n) => `topic${n}`)

/** Repeatable pseudo-random numbers, so that every run measures the same articles. */
function randomFrom(seed: number) {
  let state = seed
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31
    return state / 2 ** 31
  }
}

function addArticles(file: string): void {
  const random = randomFrom(42)
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]
  const database = new SQLite(file)
  const insert = database.prepare(
    'insert into articles (id, slug, title, content, image_id, created_at, updated_at) values (?, ?, ?, ?, null, ?, ?)',
  )
  const at = new Date().toISOString()
  database.transaction(() => {
    for (let n = 0; n < ARTICLES; n++) {
      const words = Array.from({ length: WORDS_PER_ARTICLE }, () => (random() < 0.9 ? pick(COMMON) : pick(RARE)))
      insert.run(crypto.randomUUID(), `bench-article-${n}`, `Article ${n} about ${pick(COMMON)}`, words.join(' '), at, at)
    }
  })()
  database.close()
}

async function measure(url: string, questions: string[]) {
  let n = 0
  const result = await autocannon({
    url,
    connections,
    duration,
    headers: { 'accept-encoding': 'gzip' },
    requests: [
      { setupRequest: (request) => ({ ...request, path: `/search?q=${encodeURIComponent(questions[n++ % questions.length])}` }) },
    ],
  })
  return {
    requestsPerSecond: result.requests.average,
    p99: result.latency.p99,
    failed: result.errors + result.timeouts + result.non2xx,
  }
}

buildApp()
const first = await startBenchServer()
await first.stop({ keepData: true })
addArticles(path.join(first.dataDir, 'site.db'))
const server = await startBenchServer({ dataDir: first.dataDir })
try {
  console.log(`Server at ${server.url}: the demo site and ${ARTICLES} articles of ${WORDS_PER_ARTICLE} words (SQLite)`)
  console.log(`autocannon: ${connections} connections, ${duration} s per question\n`)
  const rows: string[][] = []
  for (const [name, questions] of [
    ['a common word (in most articles)', COMMON],
    ['a rare word (in about 70 articles)', RARE.slice(0, 200)],
    ['a common and a rare word', RARE.slice(0, 200).map((word, n) => `${COMMON[n % COMMON.length]} ${word}`)],
  ] as const) {
    const measured = await measure(server.url, [...questions])
    rows.push([name, measured.requestsPerSecond.toFixed(0), String(measured.p99), String(measured.failed)])
  }
  printTable(['/search?q=', 'req/s', 'p99 ms', 'failed'], rows)
} finally {
  await server.stop()
}
