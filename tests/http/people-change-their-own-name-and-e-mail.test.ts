import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MailCatcher } from '../fixtures/mail-catcher'
import { ADMIN, get, post, signIn } from '../setup/http-session'
import { queryServerDatabase } from '../setup/server-database'
import { startTestServer, type TestServer } from '../setup/server'

// The first account is no longer stuck as admin@example.org: everyone changes their own name at
// once, and their e-mail address once a link sent to the new one is opened; the old one is told.
const mail = new MailCatcher()
let server: TestServer
let admin = ''

beforeAll(async () => {
  await mail.start()
  server = await startTestServer({ SMTP_URL: mail.url })
  admin = await signIn(server)
  const added = await post(
    server,
    '/admin/users/new',
    { name: 'Mia Market', email: 'mia@example.org', role: 'marketplace', password: 'mias own password' },
    admin,
  )
  expect(added.status).toBe(302)
})

afterAll(async () => {
  await server?.stop()
  await mail.stop()
})

const mailsTo = (address: string) => mail.mails.filter((m) => m.recipients.includes(address))

async function userRow(id = 'admin@example.org'): Promise<{ name: string; email: string } | undefined> {
  const [row] = await queryServerDatabase<{ name: string; email: string }>(
    server,
    `select name, email from users where email = '${id}' or id = '${id}'`,
  )
  return row
}

const details = (fields: Record<string, string>, cookie = admin) => post(server, '/admin/account/details', fields, cookie)

describe('my name and e-mail', () => {
  it('take a new name at once, audited, and refuse one of 10,000 characters changing nothing', async () => {
    const renamed = await details({ name: 'Grace Joseph', email: ADMIN.email })
    expect(renamed.status).toBe(302)
    expect((await userRow())?.name).toBe('Grace Joseph')
    expect(await (await get(server, '/admin/account', admin)).text()).toContain('Grace Joseph')
    expect(await (await get(server, '/admin/audit', admin)).text()).toContain('Own name changed')

    const tooLong = await details({ name: 'x'.repeat(10_000), email: 'new@example.org', currentPassword: ADMIN.password })
    expect(tooLong.status).toBe(400)
    expect(await tooLong.text()).toContain('Name must be at most 100 characters')
    expect(await userRow()).toEqual({ name: 'Grace Joseph', email: ADMIN.email })
  })

  it('change the address only with the current password, and only once the link sent to the new one is opened', async () => {
    const noPassword = await details({ name: 'Grace Joseph', email: 'grace@example.org' })
    expect(noPassword.status).toBe(400)
    expect(await noPassword.text()).toContain('Enter your current password to change your e-mail address')
    const wrong = await details({ name: 'Grace Joseph', email: 'grace@example.org', currentPassword: 'not my password' })
    expect(await wrong.text()).toContain('Current password is incorrect')
    expect(mailsTo('grace@example.org')).toEqual([])

    // A reset link sent to the old address before the change.
    expect((await post(server, '/forgot-password', { email: ADMIN.email })).status).toBe(303)
    await expect.poll(() => mailsTo(ADMIN.email).length, { timeout: 10_000 }).toBe(1)
    const resetLink = mailsTo(ADMIN.email)[0].parsed.text!.match(/\/reset-password\/\S+/)![0]

    const asked = await details({ name: 'Grace Joseph', email: 'Grace@Example.org', currentPassword: ADMIN.password })
    expect(asked.status).toBe(302)
    await expect.poll(() => mailsTo('grace@example.org').length, { timeout: 10_000 }).toBe(1)
    const [sent] = mailsTo('grace@example.org')
    expect(sent.parsed.subject).toMatch(/^Confirm your new e-mail address for /)
    const link = sent.parsed.text!.match(/\/account\/email\/\S+/)![0]
    // Nothing changes before the link is used, nor when it is only opened (mail programs open links).
    expect((await userRow())?.email).toBe(ADMIN.email)
    const page = await get(server, link)
    expect(page.status).toBe(200)
    expect(page.headers.get('cache-control')).toBe('private, no-store')
    expect(await page.text()).toContain('grace@example.org')
    expect((await userRow())?.email).toBe(ADMIN.email)

    const used = await post(server, link, {})
    expect(used.status).toBe(302)
    expect(used.headers.get('location')).toBe('/login')
    expect((await userRow('grace@example.org'))?.name).toBe('Grace Joseph')
    await expect.poll(() => mailsTo(ADMIN.email).length, { timeout: 10_000 }).toBe(2)
    expect(mailsTo(ADMIN.email)[1].parsed.text).toContain('now uses another e-mail address, grace@example.org')

    // The new address signs in, the old one no longer does; the link works once; the old reset link is gone.
    expect(await signIn(server, 'grace@example.org', ADMIN.password)).toBeTruthy()
    const oldSignIn = await post(server, '/login', { email: ADMIN.email, password: ADMIN.password })
    expect(oldSignIn.status).not.toBe(302)
    expect((await post(server, link, {})).status).toBe(410)
    expect((await get(server, resetLink)).status).toBe(410)
    const audit = await (await get(server, '/admin/audit', admin)).text()
    expect(audit).toContain('E-mail address changed from a link')
  })

  it('send nothing to an address another account has, answering as for any address, and change nothing', async () => {
    const before = mail.mails.length
    const asked = await details({ name: 'Grace Joseph', email: 'mia@example.org', currentPassword: ADMIN.password })
    expect(asked.status).toBe(302)
    await new Promise((resolve) => setTimeout(resolve, 1_000))
    expect(mail.mails.length).toBe(before)
    expect((await userRow('grace@example.org'))?.name).toBe('Grace Joseph')
    expect((await userRow('mia@example.org'))?.name).toBe('Mia Market')
  })

  it('are asked for three times a day at most, so no inbox is flooded', async () => {
    let status = 302
    let answer = ''
    for (let i = 0; i < 4 && status === 302; i++) {
      const asked = await details({ name: 'Grace Joseph', email: `flood${i}@example.org`, currentPassword: ADMIN.password })
      status = asked.status
      answer = await asked.text()
    }
    expect(status).toBe(400)
    expect(answer).toContain('Too many changes asked for. Please try again in')
  })

  it("are another person's to change, except the name, which an administrator may change", async () => {
    const [{ id }] = await queryServerDatabase<{ id: string }>(server, "select id from users where email = 'mia@example.org'")
    const renamed = await post(server, `/admin/users/${id}`, { intent: 'rename', name: 'Mia Joseph' }, admin)
    expect(renamed.status).toBe(302)
    expect((await userRow(id))?.name).toBe('Mia Joseph')
    expect(await (await get(server, '/admin/audit', admin)).text()).toContain('Name changed')
    // Mia changes only her own account: the form has no field for anyone else's.
    const mia = await signIn(server, 'mia@example.org', 'mias own password')
    expect((await details({ name: 'Mia M.', email: 'mia@example.org' }, mia)).status).toBe(302)
    expect((await userRow(id))?.name).toBe('Mia M.')
    expect((await userRow('grace@example.org'))?.name).toBe('Grace Joseph')
  })

  it('cannot be changed without signing in, and a made-up link changes nothing', async () => {
    const anonymous = await post(server, '/admin/account/details', { name: 'Anyone', email: 'any@example.org' })
    expect(anonymous.status).toBe(302)
    expect(anonymous.headers.get('location')).toMatch(/^\/login/)
    for (const made of ['/account/email/nonsense', `/account/email/${crypto.randomUUID()}.${'x'.repeat(43)}`]) {
      expect((await get(server, made)).status).toBe(410)
      expect((await post(server, made, {})).status).toBe(410)
    }
  })
})
