/**
 * Lighthouse (mobile: a 360 px phone at 2 device pixels per CSS pixel, simulated slow 4G and CPU)
 * on every public page and one item page of each kind, with the Largest Contentful Paint, the
 * JavaScript each page ships and the bytes of a first visit by kind. `npm run bench:lighthouse`.
 */
import * as chromeLauncher from 'chrome-launcher'
import lighthouse from 'lighthouse'
import { CHROMIUM, CHROMIUM_FLAGS } from '../../tests/setup/chromium'
import { buildApp, requireChromium, startBenchServer } from '../bench-server'
import { printTable } from '../print-table'
import { discoverItemPages, discoverPublicPages } from '../public-pages'

const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const

interface Row {
  path: string
  scores: number[]
  /** Largest Contentful Paint under Lighthouse's simulated slow 4G, in ms. */
  lcpMs: number
  scriptCount: number
  scriptResourceBytes: number
  /** Bytes as sent (compressed) on a first visit, by kind. */
  sent: Record<Kind, number>
  /** Failed audits of the accessibility, best-practices and SEO categories, so a score below 100 says why. */
  failedAudits: string[]
}

const KINDS = { Document: 'HTML', Stylesheet: 'CSS', Image: 'images', Media: 'images', Script: 'scripts' } as const
type Kind = (typeof KINDS)[keyof typeof KINDS] | 'other'

interface NetworkRequestItem {
  url?: string
  resourceType?: string
  transferSize?: number
  resourceSize?: number
}

async function audit(url: string, port: number, label: string): Promise<Row> {
  const result = await lighthouse(url, {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: [...CATEGORIES],
    formFactor: 'mobile',
    // The island's common phone: 360 CSS pixels wide (720 device pixels).
    screenEmulation: { mobile: true, width: 360, height: 740, deviceScaleFactor: 2, disabled: false },
  })
  if (!result) throw new Error(`Lighthouse returned no result for ${url}`)
  const { lhr } = result
  if (lhr.runtimeError) throw new Error(`Lighthouse could not audit ${url}: ${lhr.runtimeError.message}`)
  const details = lhr.audits['network-requests']?.details as { items?: NetworkRequestItem[] } | undefined
  const requests = details?.items ?? []
  const scripts = requests.filter((item) => item.resourceType === 'Script')
  const sent: Record<Kind, number> = { HTML: 0, CSS: 0, images: 0, scripts: 0, other: 0 }
  for (const item of requests) {
    // The service worker's own file and what it keeps are not part of what the page needs.
    if (item.url?.endsWith('/sw.js')) continue
    sent[KINDS[item.resourceType as keyof typeof KINDS] ?? 'other'] += item.transferSize ?? 0
  }
  const failedAudits = CATEGORIES.filter((c) => c !== 'performance').flatMap((c) =>
    (lhr.categories[c]?.auditRefs ?? [])
      .filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 1)
      .map((ref) => `${c}: ${ref.id}`),
  )
  return {
    path: label,
    scores: CATEGORIES.map((c) => Math.round((lhr.categories[c]?.score ?? 0) * 100)),
    lcpMs: lhr.audits['largest-contentful-paint']?.numericValue ?? 0,
    scriptCount: scripts.length,
    scriptResourceBytes: scripts.reduce((sum, s) => sum + (s.resourceSize ?? 0), 0),
    sent,
    failedAudits,
  }
}

/** Lighthouse asks for a second run when a trace comes out incomplete, which happens on a busy machine. */
async function auditWithRetry(url: string, port: number, label: string): Promise<Row> {
  try {
    return await audit(url, port, label)
  } catch (error) {
    console.log(`  ${label}: ${(error as Error).message} Trying once more.`)
    return audit(url, port, label)
  }
}

function printResults(rows: Row[]) {
  const kb = (bytes: number) => (bytes / 1024).toFixed(1)
  const header = [
    'path',
    'perf',
    'a11y',
    'best-pr.',
    'seo',
    'LCP ms',
    'scripts',
    'JS KB unzipped',
    'HTML KB',
    'CSS KB',
    'images KB',
    'JS KB',
    'other KB',
    'first visit KB',
  ]
  const lines = rows.map((r) => [
    r.path,
    ...r.scores.map(String),
    r.lcpMs.toFixed(0),
    String(r.scriptCount),
    kb(r.scriptResourceBytes),
    kb(r.sent.HTML),
    kb(r.sent.CSS),
    kb(r.sent.images),
    kb(r.sent.scripts),
    kb(r.sent.other),
    kb(Object.values(r.sent).reduce((sum, bytes) => sum + bytes, 0)),
  ])
  printTable(header, lines)
  const failed = rows.filter((r) => r.failedAudits.length > 0)
  if (failed.length > 0)
    console.log(`\nFailed audits:\n${failed.map((r) => `  ${r.path}: ${r.failedAudits.join(', ')}`).join('\n')}`)
}

requireChromium()
buildApp()
const server = await startBenchServer()
let chrome: chromeLauncher.LaunchedChrome | undefined
try {
  console.log(`Server at ${server.url} (fresh SQLite database with demo content)`)
  const pages = [...(await discoverPublicPages(server.url)), ...(await discoverItemPages(server.url))]
  if (pages.length === 0) throw new Error('No public page answered 200: nothing to audit.')
  chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: ['--headless', ...CHROMIUM_FLAGS] })
  console.log(`Lighthouse mobile (a 360 px phone at 2x, simulated throttling), ${pages.length} pages\n`)
  const rows: Row[] = []
  const failures: string[] = []
  for (const page of pages) {
    try {
      rows.push(await auditWithRetry(server.url + page, chrome.port, page))
    } catch (error) {
      failures.push(`${page}: ${(error as Error).message}`)
    }
  }
  printResults(rows)
  if (failures.length > 0) {
    console.log(`\nNot audited:\n${failures.map((f) => `  ${f}`).join('\n')}`)
    process.exitCode = 1
  }
} finally {
  chrome?.kill()
  await server.stop()
}
