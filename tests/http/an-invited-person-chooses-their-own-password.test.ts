import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MailCatcher } from '../fixtures/mail-catcher'
import { get, post, sessionCookieOf, signIn, userIdFromList } from '../setup/http-session'
import { execOnServerDatabase } from '../setup/server-database'
import { startTestServer, type TestServer } from '../setup/server'

// An administrator invites a person by e-mail (caught here by a real SMTP server) with a role;
// the link lets them choose their own name and password, once, within 7 days.
const mail = new MailCatcher()
let server: TestServer
let admin: string

beforeAll(async () => {
  await mail.start()
  server = await startTestServer({ SMTP_URL: mail.url })
  admin = await signIn(server)
})

afterAll(async () => {
  await server?.stop()
  await mail.stop()
})

function invite(email: string, role = 'marketplace', on = server, cookie = admin) {
  return post(on, '/admin/users/invite', { email, role }, cookie)
}

async function invitationPathFor(address: string) {
  await expect.poll(() => mail.mails.some((m) => m.recipients.includes(address)), { timeout: 10_000 }).toBe(true)
  const text = mail.mails.filter((m) => m.recipients.includes(address)).pop()!.parsed.text ?? ''
  const link = text.match(/https?:\/\/\S+\/join\/\S+/)?.[0]
  if (!link) throw new Error(`No invitation link in:\n${text}`)
  return new URL(link).pathname
}

function join(path: string, name: string, password: string, on = server) {
  return post(on, path, { name, newPassword: password, confirmPassword: password })
}

async function usersPage() {
  return (await get(server, '/admin/users', admin)).text()
}

describe('an invitation', () => {
  it('is e-mailed with its role, lets the person choose name and password once, and is in the audit log', async () => {
    const sent = await invite('new.manager@example.org')
    expect(sent.status).toBe(302)
    expect(sent.headers.get('location')).toBe('/admin/users')
    expect(await usersPage()).toContain('new.manager@example.org')

    const path = await invitationPathFor('new.manager@example.org')
    expect(path).toMatch(/^\/join\/[0-9a-f-]{36}\.[\w-]{43}$/)
    const page = await get(server, path)
    expect(page.status).toBe(200)
    expect(page.headers.get('cache-control')).toContain('no-store')
    const html = await page.text()
    expect(html).toContain('Marketplace manager')
    expect(html).toContain('new.manager@example.org')

    const short = await join(path, 'Mia Manager', 'short')
    expect(short.status).toBe(400)
    expect(await short.text()).toContain('Password must be at least 10 characters')

    const joined = await join(path, 'Mia Manager', 'mias own password')
    expect(joined.status).toBe(302)
    expect(joined.headers.get('location')).toBe('/admin/products')
    const session = sessionCookieOf(joined)!
    expect((await get(server, '/admin/products', session)).status).toBe(200)
    expect((await get(server, '/admin/users', session)).status).toBe(403)
    expect(await signIn(server, 'new.manager@example.org', 'mias own password')).toMatch(/^sid=/)

    const again = await join(path, 'Someone Else', 'another password')
    expect(again.status).toBe(410)
    expect((await get(server, path)).status).toBe(410)

    const users = await usersPage()
    expect(users).toContain('Mia Manager')
    expect(users).not.toContain('Invitations waiting')
    const audit = await (await get(server, '/admin/audit', admin)).text()
    expect(audit).toContain('Invitation made')
    expect(audit).toContain('Joined from an invitation')
  })

  it('can be withdrawn, and then its link no longer works', async () => {
    expect((await invite('withdrawn@example.org', 'admin')).status).toBe(302)
    const path = await invitationPathFor('withdrawn@example.org')
    const id = path.split('/').pop()!.split('.')[0]
    const withdrawn = await post(server, '/admin/users', { intent: 'withdraw', id }, admin)
    expect(withdrawn.status).toBe(302)
    expect(await usersPage()).not.toContain('withdrawn@example.org')
    expect((await get(server, path)).status).toBe(410)
    expect((await join(path, 'Too Late', 'a password here')).status).toBe(410)
    expect((await post(server, '/admin/users', { intent: 'withdraw', id }, admin)).status).toBe(404)
    expect(await (await get(server, '/admin/audit', admin)).text()).toContain('Invitation withdrawn')
  })

  it('is withdrawn when the person who made it is removed or may no longer invite', async () => {
    const inviters: string[] = []
    for (const name of ['Removed', 'Demoted']) {
      const email = `${name.toLowerCase()}.admin@example.org`
      expect((await invite(email, 'admin')).status).toBe(302)
      expect((await join(await invitationPathFor(email), `${name} Admin`, 'a long enough password')).status).toBe(302)
      const cookie = await signIn(server, email, 'a long enough password')
      expect((await invite(`backdoor.${name.toLowerCase()}@example.org`, 'admin', server, cookie)).status).toBe(302)
      inviters.push(await userIdFromList(server, admin, `${name} Admin`))
    }
    const [removed, demoted] = inviters
    const left = [
      await invitationPathFor('backdoor.removed@example.org'),
      await invitationPathFor('backdoor.demoted@example.org'),
    ]
    expect((await get(server, left[0])).status).toBe(200)

    expect((await post(server, `/admin/users/${removed}`, { intent: 'remove' }, admin)).status).toBe(302)
    const demotion = await post(server, `/admin/users/${demoted}`, { intent: 'change-role', role: 'marketplace' }, admin)
    expect(demotion.status).toBe(302)
    for (const path of left) {
      expect((await get(server, path)).status).toBe(410)
      expect((await join(path, 'Back Door', 'a password here')).status).toBe(410)
    }
    const page = await usersPage()
    expect(page).not.toContain('backdoor.removed@example.org')
    expect(page).not.toContain('backdoor.demoted@example.org')
  })

  it('leads a person whose role requires two-step sign-in to set it up before any session', async () => {
    expect((await post(server, '/admin/users', { roles: 'marketplace' }, admin)).status).toBe(302)
    try {
      expect((await invite('careful@example.org')).status).toBe(302)
      const joined = await join(await invitationPathFor('careful@example.org'), 'Carla Careful', 'carlas own password')
      expect(joined.status).toBe(302)
      expect(joined.headers.get('location')).toBe('/login/two-step')
      expect(sessionCookieOf(joined)).toBeUndefined()
    } finally {
      expect((await post(server, '/admin/users', {}, admin)).status).toBe(302)
    }
  })

  it('expires after 7 days', async () => {
    expect((await invite('late@example.org')).status).toBe(302)
    const path = await invitationPathFor('late@example.org')
    const id = path.split('/').pop()!.split('.')[0]
    await execOnServerDatabase(
      server,
      `update account_links set expires_at = '${new Date(Date.now() - 1000).toISOString()}' where id = '${id}'`,
    )
    expect((await get(server, path)).status).toBe(410)
    expect((await join(path, 'Late Larry', 'a password here')).status).toBe(410)
  })

  it('is refused for an address that has an account, and an altered link is refused', async () => {
    const taken = await invite('admin@example.org')
    expect(taken.status).toBe(400)
    expect(await taken.text()).toContain('A user with this e-mail already exists')
    const bad = await invite('not an address', 'owner')
    expect(bad.status).toBe(400)
    expect((await get(server, `/join/${crypto.randomUUID()}.${'x'.repeat(43)}`)).status).toBe(410)
  })

  it('is one per address (a new one replaces the old) and at most 50 wait at once', async () => {
    await execOnServerDatabase(server, `delete from account_links`)
    expect((await invite('twice@example.org')).status).toBe(302)
    const first = await invitationPathFor('twice@example.org')
    expect((await invite('twice@example.org')).status).toBe(302)
    await expect
      .poll(() => mail.mails.filter((m) => m.recipients.includes('twice@example.org')).length, { timeout: 10_000 })
      .toBe(2)
    expect((await get(server, first)).status).toBe(410)
    for (let i = 1; i < 50; i++) expect((await invite(`person${i}@example.org`)).status).toBe(302)
    const refused = await invite('person50@example.org')
    expect(refused.status).toBe(400)
    expect(await refused.text()).toContain('50 invitations are already waiting.')
  })
})

describe('without SMTP', () => {
  it('shows the link to pass on instead of e-mailing it', async () => {
    const noMail = await startTestServer()
    try {
      const cookie = await signIn(noMail)
      const made = await invite('offline@example.org', 'admin', noMail, cookie)
      expect(made.status).toBe(200)
      const link = (await made.text()).match(/value="(http[^"]+\/join\/[^"]+)"/)?.[1]
      expect(link).toBeDefined()
      const joined = await join(new URL(link!).pathname, 'Olive Offline', 'olives own password', noMail)
      expect(joined.status).toBe(302)
      expect(joined.headers.get('location')).toBe('/admin')
    } finally {
      await noMail.stop()
    }
  })
})
