import { describe, expect, it } from 'vitest'
import { ADMIN, get, post, signIn } from '../setup/http-session'
import { queryServerDatabase } from '../setup/server-database'
import { startServerForFile } from '../setup/server-for-file'

const server = await startServerForFile()

async function idOf(table: 'articles' | 'products', column: 'title' | 'name', value: string): Promise<string> {
  const [row] = await queryServerDatabase<{ id: string }>(server, `select id from ${table} where ${column} = '${value}'`)
  return row.id
}

/** The audit log's rows as text (tags dropped), newest first. */
async function auditRows(cookie: string, query = ''): Promise<string[]> {
  const response = await get(server, `/admin/audit${query}`, cookie)
  expect(response.status, query).toBe(200)
  const html = await response.text()
  const body = html.slice(html.indexOf('<tbody>'), html.indexOf('</tbody>'))
  if (!html.includes('<tbody>')) return []
  return body
    .split('<tr')
    .slice(1)
    .map((row) =>
      row
        .replace(/<[^>]*>/g, ' ')
        .replace(/\s+/g, ' ')
        .trim(),
    )
}

const day = (offset: number) => new Date(Date.now() + offset * 24 * 60 * 60_000).toISOString().slice(0, 10)

describe('the audit log', () => {
  it('shows who did what, when and from where, filtered by who, what and dates; marketplace managers see none of it', async () => {
    expect((await post(server, '/login', { email: ADMIN.email, password: 'a wrong guess' })).status).toBe(401)
    const admin = await signIn(server)

    expect((await post(server, '/admin/news/new', { title: 'Audit Day', content: 'First text.' }, admin)).status).toBe(302)
    const articleId = await idOf('articles', 'title', 'Audit Day')
    expect(
      (await post(server, `/admin/news/${articleId}`, { title: 'Audit Day, again', content: 'Second text.' }, admin)).status,
    ).toBe(302)
    expect((await post(server, '/admin/news', { id: articleId }, admin)).status).toBe(302)

    expect((await post(server, '/admin/products/new', { name: 'Audit Kite', description: 'A paper kite.' }, admin)).status).toBe(
      302,
    )
    const productId = await idOf('products', 'name', 'Audit Kite')
    expect(
      (await post(server, `/admin/products/${productId}`, { name: 'Audit Kite XL', description: 'Bigger.' }, admin)).status,
    ).toBe(302)
    expect((await post(server, '/admin/products', { intent: 'delete', id: productId }, admin)).status).toBe(302)

    const settings = { organisationName: 'Hearts of Hope Ministry', email: 'info@example.org', timeZone: 'America/Antigua' }
    expect((await post(server, '/admin/settings', settings, admin)).status).toBe(302)

    const rows = await auditRows(admin)
    const expected = [
      'Site settings changed Site settings',
      'Product moved to the trash Audit Kite XL',
      'Product edited Audit Kite XL',
      'Product added Audit Kite',
      'Article moved to the trash Audit Day, again',
      'Article edited Audit Day, again',
      'Article posted Audit Day',
      'Signed in',
      'Sign-in failed',
    ]
    expect(rows).toHaveLength(expected.length)
    expected.forEach((what, index) => {
      expect(rows[index]).toContain(what)
      expect(rows[index]).toMatch(/ 127\.0\.0\.1$/)
    })
    // Who: the admin's name and e-mail; a failed sign-in shows the e-mail typed, never the password.
    expect(rows[0]).toContain(`Administrator ${ADMIN.email}`)
    expect(rows.at(-1)).toContain(ADMIN.email)
    expect(rows.join('\n')).not.toContain('a wrong guess')

    // What
    expect(await auditRows(admin, '?what=article.deleted')).toEqual([
      expect.stringContaining('Article moved to the trash Audit Day, again'),
    ])
    expect(await auditRows(admin, '?what=sign-in-failed')).toHaveLength(1)
    // Who: everything done as the admin, and the failed attempt at their e-mail
    expect(await auditRows(admin, `?who=${encodeURIComponent(ADMIN.email)}`)).toHaveLength(expected.length)
    expect(await auditRows(admin, `?who=${encodeURIComponent(ADMIN.email)}&what=product.edited`)).toHaveLength(1)
    expect(await auditRows(admin, '?who=nobody%40example.org')).toEqual([])
    // Dates (in the site's time zone; a few days either side of today, whatever it is there)
    expect(await auditRows(admin, `?from=${day(-2)}&to=${day(2)}`)).toHaveLength(expected.length)
    expect(await auditRows(admin, `?from=${day(3)}`)).toEqual([])
    expect(await auditRows(admin, `?to=${day(-3)}`)).toEqual([])
    // The filter form keeps what was chosen.
    const filtered = await (await get(server, `/admin/audit?what=product.deleted&from=${day(-2)}`, admin)).text()
    expect(filtered).toMatch(/<option value="product.deleted" selected="">Product moved to the trash<\/option>/)
    expect(filtered).toContain(`value="${day(-2)}"`)

    // A marketplace manager is refused, and their navigation has no link to it.
    const added = await post(
      server,
      '/admin/users/new',
      { name: 'Mia Market', email: 'mia@example.org', role: 'marketplace', password: 'mias own password' },
      admin,
    )
    expect(added.status).toBe(302)
    const mia = await signIn(server, 'mia@example.org', 'mias own password')
    expect((await get(server, '/admin/audit', mia)).status).toBe(403)
    expect((await get(server, '/admin/audit?what=sign-in', mia)).status).toBe(403)
    const miasPage = await (await get(server, '/admin/products', mia)).text()
    expect(miasPage).not.toContain('href="/admin/audit"')
    expect(await (await get(server, '/admin/products', admin)).text()).toContain('href="/admin/audit"')
    // Their own actions are recorded all the same, for the admins.
    expect(await auditRows(admin, '?who=mia%40example.org')).toEqual([expect.stringContaining('Signed in')])
  })
})
