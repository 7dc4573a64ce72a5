import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MailCatcher } from '../fixtures/mail-catcher'
import { ADMIN, get, post, sessionCookieOf, signIn, userIdFromList } from '../setup/http-session'
import { execOnServerDatabase } from '../setup/server-database'
import { startTestServer, type TestServer } from '../setup/server'

// A volunteer who forgot their password gets a one-time link by e-mail, caught here by a real
// SMTP server; without SMTP an administrator makes the link to pass on by hand.
const mail = new MailCatcher()
let server: TestServer
let admin: string
let clientCount = 0

/** A client address of its own (the server trusts X-Forwarded-For here), so throttles do not mix. */
function newClient(): Record<string, string> {
  clientCount++
  return { 'x-forwarded-for': `198.51.100.${clientCount}` }
}

beforeAll(async () => {
  await mail.start()
  server = await startTestServer({ SMTP_URL: mail.url, TRUST_PROXY: 'true' })
  admin = await signIn(server)
})

afterAll(async () => {
  await server?.stop()
  await mail.stop()
})

let volunteerCount = 0
async function addVolunteer() {
  volunteerCount++
  const volunteer = {
    name: `Volunteer ${volunteerCount}`,
    email: `volunteer${volunteerCount}@example.org`,
    password: 'first password here',
  }
  const created = await post(server, '/admin/users/new', { ...volunteer, role: 'marketplace' }, admin)
  expect(created.status).toBe(302)
  return { ...volunteer, id: await userIdFromList(server, admin, volunteer.name) }
}

function askForLink(email: string, client = newClient()) {
  return post(server, '/forgot-password', { email }, undefined, client)
}

async function waitForMailTo(address: string) {
  await expect.poll(() => mail.mails.some((m) => m.recipients.includes(address)), { timeout: 10_000 }).toBe(true)
  const mails = mail.mails.filter((m) => m.recipients.includes(address))
  return mails[mails.length - 1]
}

function linkPathIn(text: string): string {
  const link = text.match(/https?:\/\/\S+\/reset-password\/\S+/)?.[0]
  if (!link) throw new Error(`No reset link in:\n${text}`)
  return new URL(link).pathname
}

function chooseNewPassword(path: string, password: string) {
  return post(server, path, { newPassword: password, confirmPassword: password }, undefined, newClient())
}

async function isSignedIn(cookie: string) {
  return (await get(server, '/admin/account', cookie)).status === 200
}

describe('a forgotten password', () => {
  it('is replaced through a link e-mailed to the account, which signs out every session and works once', async () => {
    const volunteer = await addVolunteer()
    const phone = await signIn(server, volunteer.email, volunteer.password)
    const laptop = await signIn(server, volunteer.email, volunteer.password)

    const asked = await askForLink(volunteer.email)
    expect(asked.status).toBe(303)
    expect(asked.headers.get('location')).toBe('/forgot-password?sent=1')
    const sentPage = await (await get(server, '/forgot-password?sent=1')).text()
    expect(sentPage).toContain('If an account uses this address, a link to choose a new password is on its way to it.')

    const message = await waitForMailTo(volunteer.email)
    expect(message.parsed.subject).toMatch(/Choose a new password/)
    const path = linkPathIn(message.parsed.text ?? '')
    expect(path).toMatch(/^\/reset-password\/[0-9a-f-]{36}\.[\w-]{43}$/)

    // Opening the link uses nothing up, and no cache or referrer keeps its secret.
    const page = await get(server, path)
    expect(page.status).toBe(200)
    expect(page.headers.get('cache-control')).toContain('no-store')
    expect(page.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin')
    expect(await page.text()).toContain(volunteer.name)
    expect((await get(server, path)).status).toBe(200)

    const mismatch = await post(server, path, { newPassword: 'a new password!', confirmPassword: 'something else' })
    expect(mismatch.status).toBe(400)
    expect(await mismatch.text()).toContain('The passwords do not match')

    const chosen = await chooseNewPassword(path, 'my new password 2')
    expect(chosen.status).toBe(302)
    expect(chosen.headers.get('location')).toBe('/login')
    expect(await isSignedIn(phone)).toBe(false)
    expect(await isSignedIn(laptop)).toBe(false)

    expect(
      (await post(server, '/login', { email: volunteer.email, password: volunteer.password }, undefined, newClient())).status,
    ).toBe(401)
    expect(await isSignedIn(await signIn(server, volunteer.email, 'my new password 2'))).toBe(true)

    // Once only.
    const again = await chooseNewPassword(path, 'a third password')
    expect(again.status).toBe(410)
    expect(await again.text()).toContain('This link has expired or has already been used.')
    expect((await get(server, path)).status).toBe(410)

    const audit = await (await get(server, '/admin/audit', admin)).text()
    expect(audit).toContain('Password reset link e-mailed')
    expect(audit).toContain('New password chosen from a link')
  })

  it('gives the same answer, at once, whether or not the address has an account, even when the mail server is slow', async () => {
    const volunteer = await addVolunteer()
    mail.acceptDelayMs = 4_000
    try {
      const timed = async (email: string) => {
        const started = Date.now()
        const response = await askForLink(email)
        const body = await response.text()
        return { ms: Date.now() - started, status: response.status, location: response.headers.get('location'), body }
      }
      const known = await timed(volunteer.email)
      const unknown = await timed('nobody-here@example.org')
      expect({ ...known, ms: 0 }).toEqual({ ...unknown, ms: 0 })
      // Sending waits 4 seconds for the mail server: the answer does not.
      expect(known.ms).toBeLessThan(2_000)
      expect(unknown.ms).toBeLessThan(2_000)
      await waitForMailTo(volunteer.email)
    } finally {
      mail.acceptDelayMs = 0
    }
    expect(mail.mails.some((m) => m.recipients.includes('nobody-here@example.org'))).toBe(false)
  })

  it('is sent at most 3 times an hour to one address, and a client may ask 10 times an hour, known address or not', async () => {
    const volunteer = await addVolunteer()
    const statuses = []
    for (let i = 0; i < 4; i++) statuses.push((await askForLink(volunteer.email)).status)
    expect(statuses).toEqual([303, 303, 303, 429])
    const refused = await askForLink(volunteer.email)
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(50 * 60)
    expect(await refused.text()).toContain('Too many requests. Please try again in')

    const client = newClient()
    const fromOneClient = []
    for (let i = 0; i < 11; i++) fromOneClient.push((await askForLink(`someone${i}@example.org`, client)).status)
    expect(fromOneClient).toEqual([...Array(10).fill(303), 429])
    await expect.poll(() => mail.mails.filter((m) => m.recipients.includes(volunteer.email)).length, { timeout: 10_000 }).toBe(3)
  })

  it('can no longer be used after an hour, nor once the password was changed another way', async () => {
    const volunteer = await addVolunteer()
    await askForLink(volunteer.email)
    const expiring = linkPathIn((await waitForMailTo(volunteer.email)).parsed.text ?? '')
    const id = expiring.split('/').pop()!.split('.')[0]
    const anHourAgo = new Date(Date.now() - 1000).toISOString()
    await execOnServerDatabase(server, `update account_links set expires_at = '${anHourAgo}' where id = '${id}'`)
    expect((await get(server, expiring)).status).toBe(410)
    expect((await chooseNewPassword(expiring, 'too late password')).status).toBe(410)

    mail.mails.length = 0
    await askForLink(volunteer.email)
    const overtaken = linkPathIn((await waitForMailTo(volunteer.email)).parsed.text ?? '')
    // The volunteer remembers the password after all, and changes it.
    const session = await signIn(server, volunteer.email, volunteer.password)
    const changed = await post(
      server,
      '/admin/account',
      { currentPassword: volunteer.password, newPassword: 'remembered and changed', confirmPassword: 'remembered and changed' },
      session,
    )
    expect(changed.status).toBe(302)
    expect((await get(server, overtaken)).status).toBe(410)
    expect((await chooseNewPassword(overtaken, 'an old link password')).status).toBe(410)
    expect(await isSignedIn(await signIn(server, volunteer.email, 'remembered and changed'))).toBe(true)
  })

  it('refuses a made-up, altered or half link without a word about any account', async () => {
    const volunteer = await addVolunteer()
    await askForLink(volunteer.email)
    const path = linkPathIn((await waitForMailTo(volunteer.email)).parsed.text ?? '')
    const flipped = path.slice(0, -1) + (path.endsWith('A') ? 'B' : 'A')
    for (const wrong of [
      flipped,
      path.split('.')[0],
      '/reset-password/not-a-link',
      `/reset-password/${crypto.randomUUID()}.${'x'.repeat(43)}`,
    ]) {
      const page = await get(server, wrong)
      expect(page.status).toBe(410)
      expect(await page.text()).not.toContain(volunteer.name)
      expect((await chooseNewPassword(wrong, 'guessing a password')).status).toBe(410)
    }
    expect((await get(server, path)).status).toBe(200)
  })

  it('is set only once when the link is used twice at the same moment', async () => {
    const volunteer = await addVolunteer()
    await askForLink(volunteer.email)
    const path = linkPathIn((await waitForMailTo(volunteer.email)).parsed.text ?? '')
    const answers = await Promise.all([
      chooseNewPassword(path, 'first racer password'),
      chooseNewPassword(path, 'second racer password'),
    ])
    expect(answers.map((a) => a.status).sort()).toEqual([302, 410])
  })
})

describe('without SMTP', () => {
  let noMail: TestServer
  let noMailAdmin: string
  beforeAll(async () => {
    noMail = await startTestServer()
    noMailAdmin = await signIn(noMail)
  })
  afterAll(async () => {
    await noMail?.stop()
  })

  it('says to ask an administrator, who makes a one-time link to pass on', async () => {
    const page = await (await get(noMail, '/forgot-password')).text()
    expect(page).toContain('This website cannot send e-mail. Please ask an administrator for a link to choose a new password.')
    expect(page).not.toContain('Send me a link')
    const refused = await post(noMail, '/forgot-password', { email: ADMIN.email })
    expect(refused.status).toBe(503)

    const volunteer = { name: 'Offline Volunteer', email: 'offline@example.org', password: 'first password here' }
    expect((await post(noMail, '/admin/users/new', { ...volunteer, role: 'marketplace' }, noMailAdmin)).status).toBe(302)
    const id = await userIdFromList(noMail, noMailAdmin, volunteer.name)
    const session = await signIn(noMail, volunteer.email, volunteer.password)

    const made = await post(noMail, `/admin/users/${id}`, { intent: 'reset-link' }, noMailAdmin)
    expect(made.status).toBe(200)
    const link = (await made.text()).match(/value="(http[^"]+\/reset-password\/[^"]+)"/)?.[1]
    expect(link).toBeDefined()
    const path = new URL(link!).pathname

    // A marketplace manager cannot make one.
    expect((await post(noMail, `/admin/users/${id}`, { intent: 'reset-link' }, session)).status).toBe(403)

    const chosen = await post(noMail, path, { newPassword: 'chosen by myself', confirmPassword: 'chosen by myself' })
    expect(chosen.status).toBe(302)
    expect((await get(noMail, '/admin/account', session)).status).not.toBe(200)
    expect((await post(noMail, path, { newPassword: 'chosen once more', confirmPassword: 'chosen once more' })).status).toBe(410)
    const signedIn = await post(noMail, '/login', { email: volunteer.email, password: 'chosen by myself' })
    expect(sessionCookieOf(signedIn)).toBeDefined()
    expect(await (await get(noMail, '/admin/audit', noMailAdmin)).text()).toContain('Password reset link made')
  })
})
