import { afterAll, describe, expect, it } from 'vitest'
import { get, post, signIn } from '../setup/http-session'
import { queryServerDatabase } from '../setup/server-database'
import { startTestServer } from '../setup/server'

// A site started with the demo content: the dashboard counts what is left of it, and one action
// moves all of it to the trash, after a page that lists what goes.
const server = await startTestServer()
afterAll(() => server.stop())
const admin = await signIn(server)

const TABLES = ['articles', 'media_items', 'events', 'products']

async function sampleLeft(tables = TABLES): Promise<number> {
  let left = 0
  for (const table of tables) {
    const [{ count }] = await queryServerDatabase<{ count: number | string }>(
      server,
      `select count(*) as count from ${table} where is_sample = 1 and trashed_at is null`,
    )
    left += Number(count)
  }
  return left
}

async function dashboard(): Promise<string> {
  return (await (await get(server, '/admin', admin)).text()).replaceAll('<!-- -->', '')
}

describe('the sample content', () => {
  it('is counted on the dashboard as it is at every moment, trashed items left out', async () => {
    const total = await sampleLeft()
    expect(total).toBeGreaterThan(10)
    expect(await dashboard()).toContain(`${total} sample items are still on the site: remove them`)
    const [{ id }] = await queryServerDatabase<{ id: string }>(server, 'select id from articles where is_sample = 1 limit 1')
    expect((await post(server, '/admin/news', { id }, admin)).status).toBe(302)
    expect(await dashboard()).toContain(`${total - 1} sample items are still on the site`)
  })

  it("is no longer counted once edited: the item is the site's own", async () => {
    const [{ id }] = await queryServerDatabase<{ id: string }>(
      server,
      'select id from products where is_sample = 1 and trashed_at is null limit 1',
    )
    const before = await sampleLeft()
    const edited = await post(
      server,
      `/admin/products/${id}`,
      { name: 'Our own soap', description: 'Made by Keisha.', category: 'crafts', publish: 'now' },
      admin,
    )
    expect(edited.status).toBe(302)
    expect(await sampleLeft()).toBe(before - 1)
    expect(await dashboard()).toContain(`${before - 1} sample items are still on the site`)
  })

  it('is listed before it goes, and a marketplace manager moves only the products', async () => {
    const added = await post(
      server,
      '/admin/users/new',
      { name: 'Mia Market', email: 'mia@example.org', role: 'marketplace', password: 'mias own password' },
      admin,
    )
    expect(added.status).toBe(302)
    const mia = await signIn(server, 'mia@example.org', 'mias own password')
    const [{ name }] = await queryServerDatabase<{ name: string }>(
      server,
      'select name from products where is_sample = 1 limit 1',
    )
    const products = await sampleLeft(['products'])
    const page = (await (await get(server, '/admin/trash/sample-content', mia)).text()).replaceAll('<!-- -->', '')
    expect(page).toContain(`Marketplace (${products})`)
    expect(page).toContain(name)
    expect(page).not.toContain('News (')
    expect(page).toContain(`Move all ${products} sample items to the trash`)

    const others = await sampleLeft(['articles', 'media_items', 'events'])
    const moved = await post(server, '/admin/trash/sample-content', {}, mia)
    expect(moved.status).toBe(302)
    expect(moved.headers.get('location')).toBe('/admin/trash')
    expect(await sampleLeft(['products'])).toBe(0)
    expect(await sampleLeft(['articles', 'media_items', 'events'])).toBe(others)
  })

  it('goes to the trash in one action, off every public page, each item restorable, and the action is audited', async () => {
    const [{ title }] = await queryServerDatabase<{ title: string }>(
      server,
      'select title from articles where is_sample = 1 and trashed_at is null limit 1',
    )
    expect(await (await get(server, '/news')).text()).toContain(title)
    // Someone real signed up for a demo event: the list says so before it goes.
    const [event] = await queryServerDatabase<{ id: string; title: string }>(
      server,
      'select id, title from events where is_sample = 1 and trashed_at is null limit 1',
    )
    await queryServerDatabase(
      server,
      `insert into event_signups (id, event_id, date, name, email, whatsapp, party_size, status, cancel_token, site_origin, created_at)
       values ('${crypto.randomUUID()}', '${event.id}', '2027-01-09', 'Rosa', 'rosa@example.org', null, 1, 'confirmed', '${crypto.randomUUID()}', '${server.url}', '${new Date().toISOString()}') returning id`,
    )
    const list = (await (await get(server, '/admin/trash/sample-content', admin)).text()).replace(/<[^>]*>/g, '')
    expect(list).toContain(`${event.title} (1 sign-up: deleted with it once it leaves the trash)`)
    const total = await sampleLeft()
    const moved = await post(server, '/admin/trash/sample-content', {}, admin)
    expect(moved.status).toBe(302)
    expect(moved.headers.get('location')).toBe('/admin/trash')
    const toast = moved.headers
      .getSetCookie()
      .find((c) => c.startsWith('toast='))!
      .split(';')[0]
    const told = await (await get(server, '/admin/trash', `${admin}; ${toast}`)).text()
    expect(told).toContain(`${total} sample items moved to the trash. Restore any you want to keep.`)
    expect(await sampleLeft()).toBe(0)
    expect(await (await get(server, '/news')).text()).not.toContain(title)
    expect(await dashboard()).not.toContain('sample item')
    const trash = await (await get(server, '/admin/trash', admin)).text()
    expect(trash).toContain(title)
    expect(await (await get(server, '/admin/audit', admin)).text()).toContain('Sample content moved to the trash')

    const [{ id }] = await queryServerDatabase<{ id: string }>(server, `select id from articles where title = '${title}'`)
    // Brought back, it is kept on purpose: the site's own from then on, as an edited one is.
    const restored = await post(server, '/admin/trash', { intent: 'restore', kind: 'article', id }, admin)
    expect(restored.status).toBe(302)
    expect(await (await get(server, '/news')).text()).toContain(title)
    expect(await dashboard()).not.toContain('sample item')
  })

  it('is not moved twice: with none left, the page says so and nothing is recorded', async () => {
    await post(server, '/admin/trash/sample-content', {}, admin)
    const page = (await (await get(server, '/admin/trash/sample-content', admin)).text()).replaceAll('<!-- -->', '')
    expect(page).toContain('There is no sample content left.')
    const audited = await queryServerDatabase<{ count: number | string }>(
      server,
      "select count(*) as count from audit_events where action = 'sample-content.trashed'",
    )
    const again = await post(server, '/admin/trash/sample-content', {}, admin)
    expect(again.headers.get('location')).toBe('/admin')
    expect(
      await queryServerDatabase<{ count: number | string }>(
        server,
        "select count(*) as count from audit_events where action = 'sample-content.trashed'",
      ),
    ).toEqual(audited)
  })

  it('cannot be moved by anyone but a signed-in member of the team', async () => {
    const anonymous = await post(server, '/admin/trash/sample-content', {})
    expect(anonymous.status).toBe(302)
    expect(anonymous.headers.get('location')).toMatch(/^\/login/)
  })
})
