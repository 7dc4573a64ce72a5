import { describe, expect, it } from 'vitest'
import { plainPng } from '../fixtures/images'
import { get, post, signIn } from '../setup/http-session'
import { queryServerDatabase } from '../setup/server-database'
import { startServerForFileSignedIn } from '../setup/server-for-file'
import { uploadOverHttp } from '../setup/tus-upload'

const { server, admin } = await startServerForFileSignedIn()

async function html(path: string, cookie?: string): Promise<string> {
  const response = await get(server, path, cookie)
  expect(response.status, path).toBe(200)
  return response.text()
}

/** The products a page lists, by slug, in order. */
function productLinks(page: string): string[] {
  const list = page.slice(page.indexOf('class="product-list'))
  return [...new Set([...list.matchAll(/<h2 class="product-card-name"><a href="\/marketplace\/([a-z0-9-]+)"/g)].map((m) => m[1]))]
}

function meta(page: string, property: string): string | undefined {
  return page.match(new RegExp(`<meta[^>]*property="${property}"[^>]*content="([^"]*)"`))?.[1]
}

/** Posts a form with repeated fields (several uploads, say), as a browser sends it. */
function postEntries(path: string, entries: [string, string][], cookie: string) {
  return fetch(server.url + path, {
    method: 'POST',
    redirect: 'manual',
    headers: { origin: server.url, 'content-type': 'application/x-www-form-urlencoded', cookie },
    body: new URLSearchParams(entries),
  })
}

async function managerCookie(email: string): Promise<string> {
  // The test server uses its own copy of the site: its users are made through its admin pages.
  const created = await post(
    server,
    '/admin/users/new',
    { name: 'Mia Market', email, role: 'marketplace', password: 'mias own password' },
    admin,
  )
  expect(created.status).toBe(302)
  return signIn(server, email, 'mias own password')
}

describe('visitors', () => {
  it('see the demo products newest first, by category and by search, without JavaScript', async () => {
    const all = productLinks(await html('/marketplace'))
    expect(all).toHaveLength(8)
    expect(all[0]).toBe('banana-bread-loaf')
    expect(productLinks(await html('/marketplace?category=clothing'))).toEqual(['tie-dye-t-shirts', 'straw-beach-hat'])
    expect(productLinks(await html('/marketplace?q=BRACELET'))).toEqual(['beaded-bracelets'])
    expect(productLinks(await html('/marketplace?category=crafts&q=soap'))).toEqual(['handmade-soap-set'])
    const none = await html('/marketplace?q=unicorn')
    expect(none).toContain('No products found')
    expect(productLinks(none)).toEqual([])
  })

  it('see a price with $ and two decimals only where there is one, and links in descriptions made safe', async () => {
    const page = await html('/marketplace')
    expect(page).toContain('<span class="product-price">$15.00</span>')
    const tutoring = page.slice(page.indexOf('/marketplace/maths-and-reading-tutoring'))
    expect(tutoring.slice(0, tutoring.indexOf('</li>'))).not.toContain('product-price')
    expect(page).toMatch(/<a href="https:\/\/www\.instagram\.com\/" target="_blank" rel="noopener noreferrer nofollow ugc">/)
  })

  it('are sent the cards and no more: a phone does not download contact details and dates the list does not show', async () => {
    const product = await html('/marketplace/football-coaching-for-kids')
    expect(product).toContain('https://wa.me/12685550168')
    expect(product).toContain('href="https://www.facebook.com/"')
    // The list as kept for everyone, and one made for a search.
    for (const path of ['/marketplace', '/marketplace?q=football']) {
      const page = await html(path)
      expect(productLinks(page), path).toContain('football-coaching-for-kids')
      for (const unshown of ['12685550168', 'facebookLink', 'instagramLink', 'createdAt', 'updatedAt']) {
        expect(page, `${path}: ${unshown}`).not.toContain(unshown)
      }
    }
  })

  it('keep the list or grid they chose, in a cookie of this page only', async () => {
    expect(await html('/marketplace')).toContain('product-list product-list-list')
    const chosen = await get(server, '/marketplace?view=grid')
    const cookie = chosen.headers.getSetCookie().find((c) => c.startsWith('marketplace-view='))!
    expect(cookie).toMatch(/^marketplace-view=grid;.*Path=\/marketplace/)
    // An answer that sets a cookie is nobody else's.
    expect(chosen.headers.get('cache-control')).toBe('private, no-store')
    const again = await get(server, '/marketplace', cookie.split(';')[0])
    expect(again.headers.get('vary')).toMatch(/Cookie/)
    expect(await again.text()).toContain('product-list product-list-grid')
  })

  it('open a product on its own page with its photo as the link preview', async () => {
    const page = await html('/marketplace/beaded-bracelets')
    expect(page).toContain('<h1 id="product-name">Beaded Bracelets</h1>')
    expect(page).toContain('$8.50')
    expect(meta(page, 'og:title')).toContain('Beaded Bracelets')
    const image = meta(page, 'og:image')!
    expect(image).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/media\/images\/.+\.jpg$/)
    expect((await get(server, new URL(image).pathname)).headers.get('content-type')).toBe('image/jpeg')
    expect(page).toMatch(/href="https:\/\/wa\.me\/12685550134\?text=[^"]*Beaded%20Bracelets[^"]*marketplace%2Fbeaded-bracelets"/)
    expect((await get(server, '/marketplace/no-such-product')).status).toBe(404)
  })

  it('see three products on the home page and find every product in the sitemap', async () => {
    const home = await html('/')
    const start = home.indexOf('id="marketplace-highlights"')
    const section = home.slice(start, home.indexOf('</section>', start))
    // All of them are in the page for its own script to pick from; three are shown without it.
    const items = [...section.matchAll(/<li([^>]*)>[\s\S]*?href="\/marketplace\/([a-z0-9-]+)"/g)]
    expect(new Set(items.map((m) => m[2])).size).toBe(8)
    expect(items.filter((m) => !/\bhidden\b/.test(m[1]))).toHaveLength(3)
    const sitemap = await html('/sitemap.xml')
    expect(sitemap).toContain('/marketplace</loc>')
    expect(sitemap).toContain('/marketplace/banana-bread-loaf</loc>')
  })

  it('get the products as JSON with their pictures and contact links, and nothing about who added them', async () => {
    const response = await get(server, '/api/marketplace')
    expect(response.headers.get('content-type')).toMatch(/^application\/json/)
    const { products } = (await response.json()) as { products: Record<string, unknown>[] }
    expect(products).toHaveLength(8)
    const bracelets = products.find((p) => p.slug === 'beaded-bracelets')!
    expect(Object.keys(bracelets).sort()).toEqual(
      [
        'category',
        'createdAt',
        'description',
        'facebookLink',
        'images',
        'instagramLink',
        'name',
        'price',
        'seller',
        'slug',
        'updatedAt',
        'url',
        'whatsappLink',
      ].sort(),
    )
    expect(bracelets).toMatchObject({
      name: 'Beaded Bracelets',
      category: 'crafts',
      price: 8.5,
      seller: 'Aaliyah',
      facebookLink: null,
    })
    expect(bracelets.images).toHaveLength(3)
    expect((bracelets.images as { url: string }[])[0].url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/media\/images\//)
    expect(products.find((p) => p.slug === 'maths-and-reading-tutoring')!.price).toBeNull()
  })
})

describe('managers', () => {
  it('add a product with images, and a bad form changes nothing', async () => {
    const mia = await managerCookie('mia.add@example.org')
    const missing = await post(server, '/admin/products/new', { name: '', description: '' }, mia)
    expect(missing.status).toBe(400)
    expect(await missing.text()).toContain('Name and description are required')
    const forged = await postEntries(
      '/admin/products/new',
      [
        ['name', 'Kite'],
        ['description', 'Paper kite.'],
        ['uploads', 'not-an-upload'],
      ],
      mia,
    )
    expect(forged.status).toBe(400)
    expect(await forged.text()).toContain('The uploaded file was not found. Please choose it again.')
    expect(await queryServerDatabase(server, "select id from products where name = 'Kite'")).toEqual([])

    const first = await uploadOverHttp(server, mia, await plainPng(700, 700, '#aa3300'), 'kite.png', 'image/png')
    const second = await uploadOverHttp(server, mia, await plainPng(500, 900, '#0033aa'), 'kite-2.png', 'image/png')
    const added = await postEntries(
      '/admin/products/new',
      [
        ['name', 'Kite'],
        ['description', 'Paper kite with a long tail.'],
        ['price', '4'],
        ['category', 'crafts'],
        ['whatsappNumber', '555 0111'],
        ['uploads', first],
        ['uploads', second],
      ],
      mia,
    )
    expect(added.status).toBe(302)
    expect(added.headers.get('location')).toBe('/admin/products')
    const page = await html('/marketplace/kite')
    expect(page).toContain('$4.00')
    expect(page).toContain('https://wa.me/12685550111')
    // Both images, in the order chosen, cropped square.
    expect(page.match(/class="carousel-slide"/g)).toHaveLength(2)
    expect(page).toMatch(/<img[^>]*width="700" height="700"[^>]*>[\s\S]*<img[^>]*width="500" height="500"/)
  })

  it('delete a product from the marketplace page to the trash, and its image files with it for good from there', async () => {
    const mia = await managerCookie('mia.delete@example.org')
    const [{ id }] = await queryServerDatabase<{ id: string }>(server, "select id from products where slug = 'straw-beach-hat'")
    const files = await queryServerDatabase<{ variants: string }>(
      server,
      `select variants from images where id in (select image_id from product_images where product_id = '${id}')`,
    )
    const fileUrls = files.flatMap((row) => (JSON.parse(row.variants) as { key: string }[]).map((v) => `/media/${v.key}`))
    expect(fileUrls.length).toBeGreaterThan(0)
    expect((await get(server, fileUrls[0])).status).toBe(200)

    const deleted = await post(server, '/admin/products', { intent: 'delete', id, returnTo: '/marketplace' }, mia)
    expect(deleted.status).toBe(302)
    expect(deleted.headers.get('location')).toBe('/marketplace')
    expect((await get(server, '/marketplace/straw-beach-hat')).status).toBe(404)
    // In the trash the files stay, so Undo brings the product back whole; only the team sees them.
    expect((await get(server, fileUrls[0])).status).toBe(404)
    expect((await get(server, fileUrls[0], mia)).status).toBe(200)
    const trash = await (await get(server, '/admin/trash', mia)).text()
    expect(trash).toContain('Straw Beach Hat')
    const forGood = await post(server, '/admin/trash', { intent: 'delete-for-good', kind: 'product', id }, mia)
    expect(forGood.status).toBe(302)
    for (const url of fileUrls) expect((await get(server, url, mia)).status, url).toBe(404)
    // Only the two pages the form may return to.
    const elsewhere = await post(server, '/admin/products', { intent: 'delete', id, returnTo: 'https://evil.example' }, mia)
    expect(elsewhere.status).toBe(400)
  })

  it('cannot be anyone but a signed-in manager', async () => {
    const [{ id }] = await queryServerDatabase<{ id: string }>(server, "select id from products where slug = 'banana-bread-loaf'")
    const anonymous = await post(server, '/admin/products', { intent: 'delete', id })
    expect(anonymous.status).toBe(302)
    expect(anonymous.headers.get('location')).toMatch(/^\/login/)
    expect((await get(server, '/marketplace/banana-bread-loaf')).status).toBe(200)
  })
})
