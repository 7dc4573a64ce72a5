/**
 * The public pages both benchmarks measure. Pages that do not answer 200 are skipped with a
 * note, and further top-level pages linked from the home page are added when they answer 200.
 */
export const PUBLIC_PAGES = [
  '/',
  '/about',
  '/services',
  '/support',
  '/impact',
  '/news',
  '/photos',
  '/calendar',
  '/marketplace',
  '/contact',
]

// Links that are not public pages: sign-in, administration, feeds and other files.
const NOT_A_PAGE = /^\/(admin|login|logout|healthz|media|resources)(\/|$)|\.[a-z0-9]+$/i

/** Top-level same-site paths linked from the given HTML (nav, footer, calls to action). */
function linkedTopLevelPaths(html: string): string[] {
  const paths = [...html.matchAll(/<a\b[^>]*\bhref="(\/[^"#?]*)/g)].map((m) => m[1].replace(/\/$/, '') || '/')
  return paths.filter((p) => /^\/[^/]*$/.test(p) && !NOT_A_PAGE.test(p))
}

/** The pages that answer 200 with HTML on the running site, in a stable order; prints why others are skipped. */
export async function discoverPublicPages(baseUrl: string): Promise<string[]> {
  const home = await fetch(baseUrl)
  const linked = home.ok ? linkedTopLevelPaths(await home.text()) : []
  const candidates = [...new Set([...PUBLIC_PAGES, ...linked])]
  const pages: string[] = []
  for (const page of candidates) {
    const res = await fetch(baseUrl + page, { redirect: 'manual' })
    await res.body?.cancel()
    const isHtml = res.headers.get('content-type')?.startsWith('text/html') ?? false
    if (res.status === 200 && isHtml) pages.push(page)
    else console.log(`  skipped ${page}: answered ${res.status}${res.status === 200 ? ' (not HTML)' : ''}`)
  }
  return pages
}

/** One item page of each list (an article, a photo, an event, a product), found from the list pages. */
export async function discoverItemPages(baseUrl: string): Promise<string[]> {
  const items: string[] = []
  for (const list of ['/news', '/photos', '/calendar', '/marketplace']) {
    const res = await fetch(baseUrl + list)
    const html = res.ok ? await res.text() : ''
    const link = html.match(new RegExp(`href="(${list}/[a-z0-9-]+(?:\\?[^"]*)?)"`))?.[1]?.replaceAll('&amp;', '&')
    if (link) items.push(link)
    else console.log(`  no item page found on ${list}`)
  }
  return items
}

/**
 * The pages BENCH_PAGES names (`/about,/news/*,/admin/news`), or `fallback` when it is not set;
 * `/news/*` stands for the item page discoverItemPages finds on /news.
 */
export async function pagesAsked(baseUrl: string, fallback: string[]): Promise<string[]> {
  const asked = process.env.BENCH_PAGES?.split(',') ?? fallback
  const items = asked.some((page) => page.endsWith('/*')) ? await discoverItemPages(baseUrl) : []
  return asked.map((page) => {
    if (!page.endsWith('/*')) return page
    const item = items.find((found) => found.startsWith(page.slice(0, -1)))
    if (!item) throw new Error(`No item page found for ${page}.`)
    return item
  })
}
