import { describe, expect, it } from 'vitest'
import { get } from '../setup/http-session'
import { execOnServerDatabase } from '../setup/server-database'
import { startServerForFile } from '../setup/server-for-file'

// An article's, a photo's and a product's page are kept by the page cache between content
// changes: a change made any way, here straight in the database as a script would, must still
// show at once, and an address nobody published must stay not found.
const server = await startServerForFile()

const KINDS = [
  { table: 'articles', list: '/news', slug: 'monthly-food-and-clothing-distribution', titleColumn: 'title' },
  { table: 'media_items', list: '/photos', slug: 'monthly-distribution-morning', titleColumn: 'title' },
  { table: 'products', list: '/marketplace', slug: 'banana-bread-loaf', titleColumn: 'name' },
]

async function status(path: string): Promise<number> {
  const response = await get(server, path)
  await response.body?.cancel()
  return response.status
}

describe('an item page', () => {
  for (const { table, list, slug, titleColumn } of KINDS) {
    it(`on ${list} shows a new title, a new address and the trash at once`, async () => {
      const address = `${list}/${slug}`
      expect(await status(address)).toBe(200)
      expect(await status(`${list}/${slug}-made-up`)).toBe(404)

      const title = `Renamed ${table} item`
      await execOnServerDatabase(server, `update ${table} set ${titleColumn} = '${title}' where slug = '${slug}'`)
      const renamed = await get(server, address)
      expect(renamed.status).toBe(200)
      expect(await renamed.text()).toContain(title)

      // A new address: the old one is gone, the new one answers.
      await execOnServerDatabase(server, `update ${table} set slug = '${slug}-moved' where slug = '${slug}'`)
      expect(await status(address)).toBe(404)
      expect(await status(`${address}-moved`)).toBe(200)

      await execOnServerDatabase(
        server,
        `update ${table} set trashed_at = '2026-01-01T00:00:00.000Z' where slug = '${slug}-moved'`,
      )
      expect(await status(`${address}-moved`)).toBe(404)
    })
  }
})
