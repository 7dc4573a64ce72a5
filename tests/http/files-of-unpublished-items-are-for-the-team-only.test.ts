import { afterAll, describe, expect, it } from 'vitest'
import { wallClockIn } from '../../app/platform/dates'
import { asFile, plainPng } from '../fixtures/images'
import { get, post, signIn } from '../setup/http-session'
import { createFakeClock } from '../setup/fake-clock'
import { queryServerDatabase } from '../setup/server-database'
import { startTestServer } from '../setup/server'

// A photo posted by mistake and withdrawn leaves the address everyone saw; a draft's shows to nobody outside the team.
const clock = createFakeClock()
const server = await startTestServer(clock.env)
afterAll(() => server.stop())
const admin = await signIn(server)

/** Adds an article with a picture, published as `publishing` says; resolves with its id and its picture's address. */
async function articleWithPicture(title: string, publishing: Record<string, string>): Promise<{ id: string; picture: string }> {
  const body = new FormData()
  for (const [name, value] of Object.entries({ title, content: `${title} text.`, imageAlt: title, ...publishing }))
    body.set(name, value)
  body.set('image', asFile(await plainPng(1000, 700), 'picture.png', 'image/png'))
  const added = await fetch(`${server.url}/admin/news/new`, {
    method: 'POST',
    redirect: 'manual',
    headers: { origin: server.url, cookie: admin },
    body,
  })
  expect(added.status).toBe(302)
  const [{ id }] = await queryServerDatabase<{ id: string }>(server, `select id from articles where title = '${title}'`)
  const editPage = await (await get(server, `/admin/news/${id}`, admin)).text()
  return { id, picture: editPage.match(/\/media\/images\/[\w-]+\.jpg/)![0] }
}

/** What a visitor without an account gets for the file, with its Cache-Control. */
async function asVisitor(file: string, cookie?: string): Promise<[number, string | null]> {
  const response = await get(server, file, cookie)
  await response.arrayBuffer()
  return [response.status, response.headers.get('cache-control')]
}

const HIDDEN: [number, string] = [404, 'private, no-store']
const PUBLIC: [number, string] = [200, 'public, max-age=3600']

describe('the files of an item', () => {
  it('are refused to visitors while it is a draft, and shown to the team without being stored', async () => {
    const draft = await articleWithPicture('Draft with a child', { publish: 'draft' })
    expect(await asVisitor(draft.picture)).toEqual(HIDDEN)
    expect(await asVisitor(draft.picture, admin)).toEqual([200, 'private, no-store'])
    // Every size and format of the picture.
    const html = await (await get(server, `/admin/news/${draft.id}`, admin)).text()
    const variants = [...new Set(html.match(/\/media\/images\/[\w-]+\.(jpg|webp)/g))]
    expect(variants.length).toBeGreaterThan(2)
    for (const variant of variants) expect(await asVisitor(variant), variant).toEqual(HIDDEN)
  })

  it('are shown to visitors once it is published, for an hour at a time, and refused at once when it is trashed', async () => {
    const article = await articleWithPicture('Posted by mistake', { publish: 'now' })
    expect(await asVisitor(article.picture)).toEqual(PUBLIC)
    const etag = (await get(server, article.picture)).headers.get('etag')!
    const trashed = await post(server, '/admin/news', { id: article.id }, admin)
    expect(trashed.status).toBe(302)
    expect(await asVisitor(article.picture)).toEqual(HIDDEN)
    // Not even to a cache that asks whether its copy is still good.
    expect((await get(server, article.picture, undefined, { 'if-none-match': etag })).status).toBe(404)
    expect(await asVisitor(article.picture, admin)).toEqual([200, 'private, no-store'])
  })

  it('are shown to visitors when a scheduled item goes public, not before', async () => {
    const publishAt = new Date(Math.ceil((Date.now() + 30 * 60_000) / 60_000) * 60_000)
    const { date: publishDate, time: publishTime } = wallClockIn(publishAt, 'America/Antigua')
    const scheduled = await articleWithPicture('Scheduled picture', { publish: 'schedule', publishDate, publishTime })
    expect(await asVisitor(scheduled.picture)).toEqual(HIDDEN)
    clock.setAhead(31 * 60_000)
    await expect.poll(() => asVisitor(scheduled.picture)).toEqual(PUBLIC)
    clock.setAhead(0)
  })

  it("are shown through the item's preview link only, to the browser that opened it, two previews side by side", async () => {
    const draft = await articleWithPicture('Previewed picture', { publish: 'draft' })
    const second = await articleWithPicture('Second previewed picture', { publish: 'draft' })
    const other = await articleWithPicture('Another draft picture', { publish: 'draft' })
    /** Opens the draft's preview link as its receiver does: the cookie its page sets. */
    async function openPreview(id: string): Promise<string> {
      const link = (await post(server, '/admin/previews', { table: 'articles', id }, admin)).headers.get('location')!
      const page = await get(server, (await get(server, link)).headers.get('location')!)
      expect(page.status).toBe(200)
      const [cookie] = page.headers.getSetCookie().filter((c) => c.startsWith('preview-files-'))
      expect(cookie).toMatch(/^preview-files-[0-9a-f-]{36}=[^;]+; Path=\/media\/; HttpOnly; SameSite=Lax; Max-Age=86400$/)
      return cookie.split(';')[0]
    }
    const both = `${await openPreview(draft.id)}; ${await openPreview(second.id)}`

    expect(await asVisitor(draft.picture, both)).toEqual([200, 'private, no-store'])
    expect(await asVisitor(second.picture, both)).toEqual([200, 'private, no-store'])
    expect(await asVisitor(other.picture, both)).toEqual(HIDDEN)
    expect(await asVisitor(draft.picture, 'preview-files-x=made-up')).toEqual(HIDDEN)
    // Once the draft is trashed, its link ends and so does the picture; the other preview keeps its own.
    await post(server, '/admin/news', { id: draft.id }, admin)
    expect(await asVisitor(draft.picture, both)).toEqual(HIDDEN)
    expect(await asVisitor(second.picture, both)).toEqual([200, 'private, no-store'])
  })

  it('are not opened by the preview of an event, which has none, and a file asked for with it is simply not found', async () => {
    const added = await post(
      server,
      '/admin/events/new',
      {
        title: 'Draft outing',
        description: 'A day out.',
        location: 'The beach',
        type: 'general',
        repeat: 'none',
        repeatEnds: 'never',
        startDate: '2027-06-05',
        startTime: '10:00',
        publish: 'draft',
      },
      admin,
    )
    expect(added.status).toBe(302)
    const [{ id }] = await queryServerDatabase<{ id: string }>(server, "select id from events where title = 'Draft outing'")
    const link = (await post(server, '/admin/previews', { table: 'events', id }, admin)).headers.get('location')!
    const page = await get(server, (await get(server, link)).headers.get('location')!)
    expect(page.status).toBe(200)
    expect(page.headers.getSetCookie().filter((c) => c.startsWith('preview-files-'))).toEqual([])
    const draft = await articleWithPicture('Picture beside an event', { publish: 'draft' })
    const token = link.slice('/preview/'.length)
    expect(await asVisitor(draft.picture, `preview-files-${token.split('.')[0]}=${token}`)).toEqual(HIDDEN)
  })
})
