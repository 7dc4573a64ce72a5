import { afterAll, describe, expect, it } from 'vitest'
import { plainPng } from '../fixtures/images'
import { createFakeClock } from '../setup/fake-clock'
import { get, post, signIn } from '../setup/http-session'
import { queryServerDatabase } from '../setup/server-database'
import { startTestServer } from '../setup/server'
import { uploadOverHttp } from '../setup/tus-upload'

const clock = createFakeClock()
const server = await startTestServer(clock.env)
afterAll(() => server.stop())
const admin = await signIn(server)

async function addPhoto(title: string): Promise<{ slug: string; id: string; imageUrl: string }> {
  const files = await uploadOverHttp(server, admin, await plainPng(640, 480), 'photo.png', 'image/png')
  const added = await post(
    server,
    '/admin/photos',
    { intent: 'upload', files, title, description: 'A moment.', category: 'Community' },
    admin,
  )
  expect(added.status).toBe(302)
  const [row] = await queryServerDatabase<{ id: string; slug: string }>(
    server,
    `select id, slug from media_items where title = '${title}' order by created_at desc limit 1`,
  )
  const page = await (await get(server, `/photos/${row.slug}`)).text()
  const imageUrl = page.match(/src="(\/media\/[^"]+)"/)![1]
  return { ...row, imageUrl }
}

const KIND_OF: Record<string, string> = { articles: 'article', events: 'event', media_items: 'media' }

/** The page a redirect leads to, with the one-time toast cookie it set. */
async function followWithToast(response: Response): Promise<string> {
  const toast = response.headers
    .getSetCookie()
    .find((c) => c.startsWith('toast='))!
    .split(';')[0]
  return (await get(server, response.headers.get('location')!, `${admin}; ${toast}`)).text()
}

describe('the trash', () => {
  it('takes a deleted photo off the site at once, keeps its file and offers Undo, which brings it back', async () => {
    const photo = await addPhoto('Harvest Day')
    const deleted = await post(server, '/admin/photos', { intent: 'delete', id: photo.id, returnTo: '/photos' }, admin)
    expect(deleted.status).toBe(302)
    expect(deleted.headers.get('location')).toBe('/photos')
    const page = await followWithToast(deleted)
    expect(page).toContain('Moved to the trash.')
    expect(page).toMatch(/<form class="toast-undo" action="\/admin\/trash" method="post">/)
    expect((await get(server, `/photos/${photo.slug}`)).status).toBe(404)
    expect(await (await get(server, '/photos')).text()).not.toContain('Harvest Day')
    // Its file is kept for the undo, and shown to the team only.
    expect((await get(server, photo.imageUrl)).status).toBe(404)
    expect((await get(server, photo.imageUrl, admin)).status).toBe(200)

    const undone = await post(
      server,
      '/admin/trash',
      { intent: 'restore', kind: 'media', id: photo.id, returnTo: '/photos' },
      admin,
    )
    expect(undone.headers.get('location')).toBe('/photos')
    expect((await get(server, `/photos/${photo.slug}`)).status).toBe(200)

    // The Undo comes back to a page of this site only.
    for (const elsewhere of ['//evil.example/x', '/\\evil.example', 'https://evil.example', '/.//evil.example']) {
      await post(server, '/admin/photos', { intent: 'delete', id: photo.id }, admin)
      const back = await post(
        server,
        '/admin/trash',
        { intent: 'restore', kind: 'media', id: photo.id, returnTo: elsewhere },
        admin,
      )
      expect(back.headers.get('location'), elsewhere).toBe('/admin/trash')
    }
  })

  it('keeps a trashed item’s address reserved, lists it, and deletes it for good with its file', async () => {
    const photo = await addPhoto('Fun Run')
    await post(server, '/admin/photos', { intent: 'delete', id: photo.id }, admin)
    const again = await addPhoto('Fun Run')
    expect(again.slug).toBe(`${photo.slug}-2`)

    const trash = await (await get(server, '/admin/trash', admin)).text()
    expect(trash).toContain('Fun Run')
    expect(trash).toContain('Restore')
    const gone = await post(server, '/admin/trash', { intent: 'delete-for-good', kind: 'media', id: photo.id }, admin)
    expect(gone.headers.get('location')).toBe('/admin/trash')
    expect(await queryServerDatabase(server, `select id from media_items where id = '${photo.id}'`)).toEqual([])
    // The file is gone for the team too.
    expect((await get(server, photo.imageUrl, admin)).status).toBe(404)
    expect((await get(server, again.imageUrl)).status).toBe(200)
    const audit = await (await get(server, '/admin/audit', admin)).text()
    expect(audit).toContain('Photo or video deleted for good')
  })

  it('opens no edit page of an item in the trash: it leads to the trash to restore it, and a save changes nothing', async () => {
    const product = await post(
      server,
      '/admin/products/new',
      { name: 'Trashed soap', description: 'Lavender.', category: 'crafts' },
      admin,
    )
    expect(product.status).toBe(302)
    const [{ id }] = await queryServerDatabase<{ id: string }>(server, `select id from products where name = 'Trashed soap'`)
    expect((await post(server, '/admin/products', { intent: 'delete', id }, admin)).status).toBe(302)

    const opened = await get(server, `/admin/products/${id}`, admin)
    expect(opened.status).toBe(302)
    expect(opened.headers.get('location')).toBe('/admin/trash')
    const trash = await followWithToast(opened)
    expect(trash).toContain('&quot;Trashed soap&quot; is in the trash. Restore it to edit it.')
    expect(trash).toContain('aria-label="Restore Trashed soap"')

    const saved = await post(
      server,
      `/admin/products/${id}`,
      { name: 'Edited soap', description: 'Changed.', category: 'crafts', publish: 'now' },
      admin,
    )
    expect(saved.status).toBe(302)
    expect(await followWithToast(saved)).toContain('This product has been deleted in the meantime.')
    const [row] = await queryServerDatabase<{ name: string; trashed_at: string | null }>(
      server,
      `select name, trashed_at from products where id = '${id}'`,
    )
    expect(row.name).toBe('Trashed soap')
    expect(row.trashed_at).not.toBeNull()

    // The other kinds' edit pages lead to the trash too.
    const idOf = async (table: string) =>
      (await queryServerDatabase<{ id: string }>(server, `select id from ${table} where trashed_at is null limit 1`))[0].id
    const others: [string, string, Record<string, string>][] = [
      ['articles', '/admin/news', {}],
      ['events', '/admin/events', {}],
      ['media_items', '/admin/photos', { intent: 'delete' }],
    ]
    for (const [table, list, fields] of others) {
      const itemId = await idOf(table)
      expect((await post(server, list, { ...fields, id: itemId }, admin)).status, list).toBe(302)
      const page = await get(server, `${list}/${itemId}`, admin)
      expect(page.headers.get('location'), list).toBe('/admin/trash')
      const restored = await post(server, '/admin/trash', { intent: 'restore', kind: KIND_OF[table], id: itemId }, admin)
      expect(restored.status, list).toBe(302)
      expect((await get(server, `${list}/${itemId}`, admin)).status, list).toBe(200)
    }
  })

  it('refuses an unknown kind with a message and changes nothing', async () => {
    const response = await post(server, '/admin/trash', { intent: 'restore', kind: 'users', id: 'x' }, admin)
    expect(response.status).toBe(400)
    expect(await response.text()).toContain('This item could not be found in the trash.')
  })

  it('is emptied a batch per click, saying how many wait', async () => {
    const now = new Date().toISOString()
    await queryServerDatabase(
      server,
      `with recursive n(i) as (select 1 union all select i + 1 from n where i < 60)
       insert into articles (id, slug, title, content, created_at, updated_at, publish_at, trashed_at)
       select 'bulk-' || i, 'bulk-' || i, 'Bulk ' || i, 'Old.', '${now}', '${now}', '${now}', '${now}' from n returning id`,
    )
    const first = await post(server, '/admin/trash', { intent: 'empty' }, admin)
    expect(await followWithToast(first)).toMatch(/50 items deleted for good\. \d+ more wait: press Empty trash again\./)
    const second = await followWithToast(await post(server, '/admin/trash', { intent: 'empty' }, admin))
    expect(second).toMatch(/\d+ items? deleted for good\./)
    expect(second).not.toContain('more wait')
    expect(await queryServerDatabase(server, `select id from articles where trashed_at is not null`)).toEqual([])
  })

  it('empties itself of what has waited 30 days, files included, and of nothing younger', async () => {
    const old = await addPhoto('Old Picnic')
    await post(server, '/admin/photos', { intent: 'delete', id: old.id }, admin)
    const recent = await addPhoto('Recent Picnic')
    // Restarted a month later, the site removes what was trashed over 30 days before.
    clock.setAhead(31 * 86_400_000)
    const later = await startTestServer(clock.env, { sharedDatabase: server.database })
    try {
      const team = await signIn(later)
      await post(later, '/admin/photos', { intent: 'delete', id: recent.id }, team)
      await expect.poll(() => queryServerDatabase(later, `select id from media_items where id = '${old.id}'`)).toEqual([])
      expect((await get(later, old.imageUrl, team)).status).toBe(404)
      expect(await queryServerDatabase(later, `select id from media_items where id = '${recent.id}'`)).toHaveLength(1)
    } finally {
      await later.stop()
    }
  })
})
