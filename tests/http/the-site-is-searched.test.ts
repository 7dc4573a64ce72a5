import { describe, expect, it } from 'vitest'
import { get, post } from '../setup/http-session'
import { queryServerDatabase } from '../setup/server-database'
import { startServerForFileSignedIn } from '../setup/server-for-file'

const { server, admin } = await startServerForFileSignedIn()

async function html(path: string): Promise<string> {
  const response = await get(server, path)
  expect(response.status, path).toBe(200)
  return response.text()
}

/** The addresses of the results of a search page, best first. */
function resultLinks(page: string): string[] {
  const list = page.slice(page.indexOf('class="search-results"'))
  return [...list.matchAll(/<h2 class="search-result-title"><a href="([^"]+)"/g)].map((m) => m[1])
}

const search = async (q: string) => resultLinks(await html(`/search?q=${encodeURIComponent(q)}`))

async function idOf(table: string, column: string, value: string): Promise<string> {
  const [row] = await queryServerDatabase<{ id: string }>(server, `select id from ${table} where ${column} = '${value}'`)
  return row.id
}

async function postArticle(title: string, content: string): Promise<string> {
  expect((await post(server, '/admin/news/new', { title, content }, admin)).status).toBe(302)
  return idOf('articles', 'title', title)
}

describe('visitors searching the site', () => {
  it('find news, photos, events and products by a word, with the word marked', async () => {
    const page = await html('/search?q=distribution')
    expect(resultLinks(page)).toEqual(
      expect.arrayContaining([
        '/news/monthly-food-and-clothing-distribution',
        '/photos/monthly-distribution-morning',
        '/calendar/monthly-food-and-clothing-distribution',
      ]),
    )
    expect(page).toContain('<mark>Distribution</mark>')
    expect(await search('bracelets')).toEqual(['/marketplace/beaded-bracelets'])
  })

  it('find words in other forms and without their accents, the best match first', async () => {
    await postArticle('Kite Festival on the Hill', 'Bring a kite, or make one with us.')
    await postArticle('Autumn Lantern Walk', 'After the walk there is tea. Someone may fly a kite.')
    await postArticle('Crème brûlée Morning', 'The volunteers baked crème brûlée for everyone.')
    expect(await search('kites')).toEqual(['/news/kite-festival-on-the-hill', '/news/autumn-lantern-walk'])
    expect(await search('creme brulee')).toEqual(['/news/creme-brulee-morning'])
    expect(await search('baking')).toContain('/news/creme-brulee-morning')
    const page = await html('/search?q=creme')
    expect(page).toContain('<mark>Crème</mark>')
  })

  it('see stored text as text, never as markup', async () => {
    await postArticle('Bold <b>claims</b> tested', 'A <script>alert("x")</script> paragraph about ferrets.')
    const page = await html('/search?q=ferrets')
    expect(resultLinks(page)).toHaveLength(1)
    const results = page.match(/<ol class="search-results">.*?<\/ol>/)?.[0]
    expect(results).toContain('alert(&quot;x&quot;)&lt;/script&gt; paragraph')
    expect(results).toContain('<mark>ferrets</mark>')
    expect(results).toContain('Bold &lt;b&gt;claims&lt;/b&gt; tested')
    expect(page).not.toContain('<script>alert')
    expect(page).not.toContain('<b>claims')
  })

  it('find an edited article by its new words at once, and a deleted one no more', async () => {
    const id = await postArticle('Penguin Parade', 'A walk of penguins.')
    expect(await search('penguin')).toEqual(['/news/penguin-parade'])
    expect(
      (await post(server, `/admin/news/${id}`, { title: 'Walrus Parade', content: 'A walk of walruses.' }, admin)).status,
    ).toBe(302)
    expect(await search('penguin')).toEqual([])
    expect(await search('walrus')).toHaveLength(1)
    expect((await post(server, '/admin/news', { id }, admin)).status).toBe(302)
    expect(await search('walrus')).toEqual([])
  })

  it('may type quotes, operators and symbols: they are only words', async () => {
    for (const q of ['"kite', 'kite NEAR(hill festival)', 'kite*', 'title:kite', '-kite', 'kite OR', '(kite', "kite's &|!"]) {
      const response = await get(server, `/search?q=${encodeURIComponent(q)}`)
      expect(response.status, q).toBe(200)
    }
    expect(await search('"kite')).toContain('/news/kite-festival-on-the-hill')
    expect(await html('/search?q=***')).toContain('has none')
    expect(await html('/search?q=zzzqqq')).toContain('Nothing found for')
  })

  it('cost what a short question costs, however long the text or far the page', async () => {
    expect((await get(server, `/search?q=${'kite '.repeat(2000)}`)).status).toBe(200)
    expect((await get(server, `/search?q=${'abcdefghij'.repeat(1000)}`)).status).toBe(200)
    expect((await get(server, '/search?q=kite&page=999999999')).status).toBe(404)
    expect((await get(server, '/search?q=kite&page=abc')).status).toBe(404)
    // A page past the last shows the last one.
    expect(resultLinks(await html('/search?q=kite&page=3'))).toContain('/news/kite-festival-on-the-hill')
  })

  it('are not kept by the page cache, one page per question', async () => {
    const response = await get(server, '/search?q=kite')
    expect(response.headers.get('cache-control')).toMatch(/private/)
  })
})

describe('the header', () => {
  it('has a search form that works without JavaScript on every public page', async () => {
    for (const path of ['/', '/news', '/marketplace', '/contact']) {
      const form = (await html(path)).match(/<form[^>]*role="search"[^>]*>.*?<\/form>/)?.[0]
      const tag = form?.slice(0, form.indexOf('>') + 1)
      expect(tag, path).toContain('method="get"')
      expect(tag, path).toContain('action="/search"')
      expect(form, path).toMatch(/<input[^>]*name="q"/)
      expect(form, path).toMatch(/<button type="submit"[^>]*aria-label="Search the site"/)
    }
  })
})

describe("the marketplace's search", () => {
  it('uses the same engine: other forms of a word find the product', async () => {
    const page = await html('/marketplace?q=soaps')
    expect(page).toContain('href="/marketplace/handmade-soap-set"')
    expect(await html('/marketplace?q=unicorn')).toContain('No products found')
  })
})
