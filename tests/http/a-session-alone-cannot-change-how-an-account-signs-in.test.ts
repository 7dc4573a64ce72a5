import crypto from 'node:crypto'
import { generate } from 'otplib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MailCatcher } from '../fixtures/mail-catcher'
import { ADMIN, get, post, sessionCookieOf, signIn } from '../setup/http-session'
import { execOnServerDatabase, queryServerDatabase } from '../setup/server-database'
import { startTestServer, type TestServer } from '../setup/server'

// A session cookie alone (a borrowed phone, a stolen cookie) must not become lasting access:
// adding a passkey, turning two-step sign-in off or renewing recovery codes needs the password
// typed within the last 15 minutes, and a password reset removes every passkey.
const mail = new MailCatcher()
let server: TestServer

beforeAll(async () => {
  await mail.start()
  server = await startTestServer({ SMTP_URL: mail.url })
})

afterAll(async () => {
  await server?.stop()
  await mail.stop()
})

/** Lets 16 minutes pass for every session's last proof of who its owner is. */
async function ageSessions() {
  const longAgo = new Date(Date.now() - 16 * 60_000).toISOString()
  await execOnServerDatabase(server, `update sessions set confirmed_at = '${longAgo}'`)
}

async function adminId(): Promise<string> {
  const [row] = await queryServerDatabase<{ id: string }>(server, `select id from users where email = '${ADMIN.email}'`)
  return row.id
}

/** A passkey as the database keeps it, for the pages that list and remove them. */
async function givePasskey(userId: string, name: string) {
  const id = crypto.randomBytes(16).toString('base64url')
  const at = new Date().toISOString()
  await execOnServerDatabase(
    server,
    `insert into passkeys (id, user_id, name, public_key, counter, transports, created_at, last_used_at)
     values ('${id}', '${userId}', '${name}', '${crypto.randomBytes(77).toString('base64url')}', 0, '[]', '${at}', null)`,
  )
  return id
}

const secretOn = (html: string) => html.match(/<code class="two-step-secret">([^<]+)<\/code>/)![1].replace(/\s/g, '')

describe('changing how an account signs in', () => {
  it('asks a session that has not proved who it is lately for the password first, then allows it', async () => {
    const admin = await signIn(server)
    // Just signed in: the app can be set up at once.
    expect((await post(server, '/admin/account/two-step', { intent: 'begin' }, admin)).status).toBe(302)
    const secret = secretOn(await (await get(server, '/admin/account/two-step', admin)).text())
    const confirmed = await post(
      server,
      '/admin/account/two-step',
      { intent: 'confirm', code: await generate({ secret }) },
      admin,
    )
    expect(confirmed.status).toBe(200)

    await ageSessions()
    const confirmPage = `/admin/account/confirm?${new URLSearchParams({ redirectTo: '/admin/account/two-step' })}`
    const page = await get(server, '/admin/account/two-step', admin)
    expect(page.status).toBe(302)
    expect(page.headers.get('location')).toBe(confirmPage)
    for (const intent of ['turn-off', 'new-recovery-codes', 'begin']) {
      const refused = await post(server, '/admin/account/two-step', { intent }, admin)
      expect(refused.status).toBe(302)
      expect(refused.headers.get('location')).toBe(confirmPage)
    }
    // Nor can it give a way into another account: a new account, an invitation, a password reset.
    const id = await adminId()
    for (const [path, fields] of [
      [
        '/admin/users/new',
        { name: 'Back Door', email: 'backdoor@example.org', role: 'admin', password: 'a long enough password' },
      ],
      ['/admin/users/invite', { email: 'backdoor@example.org', role: 'admin' }],
      [`/admin/users/${id}`, { intent: 'reset-password', password: 'a password of mine' }],
    ] as const) {
      const refused = await post(server, path, fields, admin)
      expect(refused.status, path).toBe(302)
      expect(refused.headers.get('location'), path).toBe(`/admin/account/confirm?${new URLSearchParams({ redirectTo: path })}`)
    }
    expect(await queryServerDatabase(server, `select id from users where email = 'backdoor@example.org'`)).toEqual([])
    expect(await queryServerDatabase(server, `select id from account_links where email = 'backdoor@example.org'`)).toEqual([])
    const options = await post(server, '/admin/account/passkeys', { intent: 'options' }, admin)
    expect(options.status).toBe(403)
    expect((await options.json()).error).toContain('enter your password again before adding a passkey')
    // Nothing changed: the app is still asked for after the password.
    const [app] = await queryServerDatabase(server, `select count(*) as n from authenticator_apps where confirmed_at is not null`)
    expect(Number(app.n)).toBe(1)

    const form = await get(server, confirmPage, admin)
    expect(form.status).toBe(200)
    expect(await form.text()).toContain('Confirm it is you')
    const wrong = await post(
      server,
      '/admin/account/confirm',
      { currentPassword: 'not it', redirectTo: '/admin/account/two-step' },
      admin,
    )
    expect(wrong.status).toBe(400)
    expect(await wrong.text()).toContain('Current password is incorrect')
    expect((await get(server, '/admin/account/two-step', admin)).status).toBe(302)
    // A path elsewhere is not followed.
    const right = await post(
      server,
      '/admin/account/confirm',
      { currentPassword: ADMIN.password, redirectTo: '//evil.example' },
      admin,
    )
    expect(right.status).toBe(302)
    expect(right.headers.get('location')).toBe('/admin/account')
    expect((await get(server, '/admin/account/two-step', admin)).status).toBe(200)

    const off = await post(server, '/admin/account/two-step', { intent: 'turn-off' }, admin)
    expect(off.status).toBe(302)
    // The owner is told, in case it was not them.
    await expect.poll(() => mail.mails.some((m) => m.parsed.subject?.includes('has changed')), { timeout: 10_000 }).toBe(true)
    const told = mail.mails.find((m) => m.parsed.subject?.includes('has changed'))!
    expect(told.recipients).toEqual([ADMIN.email])
    expect(told.parsed.text).toContain('Two-step sign-in was turned off on your account')
    expect(told.parsed.text).toMatch(/\/forgot-password/)

    const audit = await (await get(server, '/admin/audit', admin)).text()
    expect(audit).toContain('Wrong password typed to change how they sign in')
    expect(audit).toContain('Password typed again to change how they sign in')
  })

  it('lists a user’s passkeys to administrators, who can remove them, and a password reset removes them all', async () => {
    const admin = await signIn(server)
    const created = await post(
      server,
      '/admin/users/new',
      { name: 'Pia Passkey', email: 'pia@example.org', role: 'marketplace', password: 'a long enough password' },
      admin,
    )
    expect(created.status).toBe(302)
    const [pia] = await queryServerDatabase<{ id: string }>(server, `select id from users where email = 'pia@example.org'`)
    const lost = await givePasskey(pia.id, 'Lost phone')
    await givePasskey(pia.id, 'Work laptop')
    const page = async () => (await get(server, `/admin/users/${pia.id}`, admin)).text()
    expect(await page()).toContain('Lost phone')
    expect(await page()).toContain('Work laptop')

    const removed = await post(server, `/admin/users/${pia.id}`, { intent: 'remove-passkey', passkeyId: lost }, admin)
    expect(removed.status).toBe(302)
    expect(await page()).not.toContain('Lost phone')
    expect(await page()).toContain('Work laptop')

    const reset = await post(
      server,
      `/admin/users/${pia.id}`,
      { intent: 'reset-password', password: 'another long password' },
      admin,
    )
    expect(reset.status).toBe(302)
    expect(await page()).toContain('Pia Passkey has no passkeys.')
    const left = await queryServerDatabase(server, `select id from passkeys where user_id = '${pia.id}'`)
    expect(left).toEqual([])
  })

  it('a reset by e-mailed link removes the passkeys too', async () => {
    const id = await adminId()
    await givePasskey(id, 'Added by a thief')
    expect((await post(server, '/forgot-password', { email: ADMIN.email })).status).toBe(303)
    await expect.poll(() => mail.mails.some((m) => /reset-password\//.test(m.parsed.text ?? '')), { timeout: 10_000 }).toBe(true)
    const text = mail.mails.find((m) => /reset-password\//.test(m.parsed.text ?? ''))!.parsed.text!
    const path = new URL(text.match(/https?:\/\/\S+\/reset-password\/\S+/)![0]).pathname
    const chosen = await post(server, path, { newPassword: ADMIN.password, confirmPassword: ADMIN.password })
    expect(chosen.status).toBe(302)
    expect(await queryServerDatabase(server, `select id from passkeys where user_id = '${id}'`)).toEqual([])
  })
})

describe('a session begun by the second step', () => {
  it('records the browser and address it began from, for the list of devices', async () => {
    const browser =
      'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36'
    const admin = await signIn(server)
    expect((await post(server, '/admin/account/two-step', { intent: 'begin' }, admin)).status).toBe(302)
    const secret = secretOn(await (await get(server, '/admin/account/two-step', admin)).text())
    await post(server, '/admin/account/two-step', { intent: 'confirm', code: await generate({ secret }) }, admin)

    const password = await post(server, '/login', ADMIN, undefined, { 'user-agent': browser })
    const pending = password.headers
      .getSetCookie()
      .find((c) => c.startsWith('two_step='))!
      .split(';')[0]
    const code = await generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 })
    const second = await post(server, '/login/two-step', { code }, pending, { 'user-agent': browser })
    expect(second.status).toBe(302)
    const session = sessionCookieOf(second)!
    const devices = await (await get(server, '/admin/account', session)).text()
    expect(devices).toContain('Chrome on Android, phone')
    expect(devices).not.toContain('Unknown device')
  })
})
