import fs from 'node:fs'
import http from 'node:http'
import ICAL from 'ical.js'
import { describe, expect, it } from 'vitest'
import { get, post } from '../setup/http-session'
import { execOnServerDatabase, queryServerDatabase } from '../setup/server-database'
import { startServerForFileSignedIn } from '../setup/server-for-file'

// Anyone can ask the calendar for any date: what a request costs must not grow with the date.
const { server, admin } = await startServerForFileSignedIn()

const WEEKLY = {
  description: 'Every week.',
  startDate: '2026-01-03',
  startTime: '10:00',
  endTime: '11:00',
  location: 'Church hall',
  type: 'meeting',
  repeat: 'weekly',
}

async function addEvent(fields: Record<string, string>) {
  return post(server, '/admin/events/new', fields, admin)
}

const eventCount = async () => Number((await queryServerDatabase<{ n: number }>(server, 'select count(*) as n from events'))[0].n)

async function timed(request: Promise<Response>): Promise<{ status: number; ms: number }> {
  const started = performance.now()
  const response = await request
  await response.arrayBuffer()
  return { status: response.status, ms: performance.now() - started }
}

// Three series: one that never ends, one that ends on the last day the form allows, and one
// saved before that limit existed, ending in the year 9999.
expect((await addEvent({ ...WEEKLY, title: 'Never ending', repeatEnds: 'never' })).status).toBe(302)
expect(
  (
    await addEvent({
      ...WEEKLY,
      title: 'Until the limit',
      repeatEnds: 'on-date',
      repeatUntil: '2200-12-31',
    })
  ).status,
).toBe(302)
expect((await addEvent({ ...WEEKLY, title: 'Far future', repeatEnds: 'never' })).status).toBe(302)
await execOnServerDatabase(
  server,
  "update events set repeat_until = '9999-12-31', last_starts_at = '9999-12-25T14:00:00.000Z' where slug = 'far-future'",
)

describe('dates outside the years the calendar takes', () => {
  it('are refused by the event form with a plain message, and nothing is saved', async () => {
    const before = await eventCount()
    const early = await addEvent({
      ...WEEKLY,
      title: 'Epiphany',
      startDate: '0026-01-06',
      repeat: 'none',
    })
    expect(early.status).toBe(400)
    expect(await early.text()).toContain('Start date must be between 1900 and 2200')
    const late = await addEvent({
      ...WEEKLY,
      title: 'Forever',
      repeatEnds: 'on-date',
      repeatUntil: '9999-12-31',
    })
    expect(late.status).toBe(400)
    expect(await late.text()).toContain('Last date must be between 1900 and 2200')
    expect(await eventCount()).toBe(before)
  })

  it('are not found on the calendar (404, not an error)', async () => {
    for (const path of [
      '/calendar?month=9999-12',
      '/calendar?month=0026-01',
      '/calendar?month=2201-01',
      '/calendar/never-ending?date=9999-12-25',
      '/calendar/never-ending?date=0026-01-06',
      '/calendar/never-ending?date=2026-02-30',
    ]) {
      expect((await get(server, path)).status, path).toBe(404)
    }
    expect(server.output()).not.toMatch(/"level":(50|60)/)
  })

  it('still show the last allowed month and day', async () => {
    const month = await get(server, '/calendar?month=2200-12')
    expect(month.status).toBe(200)
    expect(await month.text()).toContain('href="/calendar/until-the-limit?date=2200-12-27"')
    const day = await get(server, '/calendar/until-the-limit?date=2200-12-27')
    expect(day.status).toBe(200)
    expect(await day.text()).toContain('Saturday, December 27, 2200')
  })
})

describe('requests for dates near the limit', () => {
  /** Twenty requests for pages of the three series on these days and months, sent at once. */
  const twentyPages = (days: string[], months: string[]) => [
    ...days.slice(0, 6).map((day) => `/calendar/far-future?date=${day}`),
    ...days.slice(6, 12).map((day) => `/calendar/never-ending?date=${day}`),
    ...days.slice(12, 15).map((day) => `/calendar/until-the-limit?date=${day}`),
    ...months.map((month) => `/calendar?month=${month}`),
    `/calendar.ics?copy=${days[0]}`,
  ]
  const daysOf = (month: string) => Array.from({ length: 15 }, (_, i) => `${month}-${String(i + 1).padStart(2, '0')}`)

  /** CPU time the server process has used, in ms (what a request costs, whatever else the machine is doing). */
  function serverCpuMs(): number {
    const fields = fs.readFileSync(`/proc/${server.process.pid}/stat`, 'utf8').split(') ')[1].split(' ')
    // utime and stime, in clock ticks of 10 ms.
    return (Number(fields[11]) + Number(fields[12])) * 10
  }

  /** Sends the requests at once while asking /healthz one after another: the CPU they cost and the slowest health check. */
  async function burstBesideHealthCheck(paths: string[]) {
    const cpuBefore = serverCpuMs()
    let over = false
    const burst = Promise.all(paths.map((path) => timed(get(server, path)))).finally(() => (over = true))
    const health: number[] = []
    while (!over) {
      const answer = await timed(get(server, '/healthz'))
      expect(answer.status).toBe(200)
      health.push(answer.ms)
    }
    const answers = await burst
    expect(answers.map((a) => a.status)).toEqual(paths.map(() => 200))
    return { cpuMs: serverCpuMs() - cpuBefore, slowestHealthCheck: Math.max(...health) }
  }

  it('cost what an ordinary request costs: twenty at once hold up /healthz no longer than ordinary pages do', async () => {
    // The same pages for dates of this year and next first, so that both bursts find the server warm.
    await burstBesideHealthCheck(twentyPages(daysOf('2027-01'), ['2027-01', '2027-02', '2027-03', '2027-04']))
    const ordinary = await burstBesideHealthCheck(twentyPages(daysOf('2027-06'), ['2027-05', '2027-06', '2027-07', '2027-08']))
    const nearTheLimit = await burstBesideHealthCheck(
      twentyPages(daysOf('2200-12'), ['2200-08', '2200-09', '2200-10', '2200-11']),
    )
    const seen = JSON.stringify({ ordinary, nearTheLimit })
    expect(nearTheLimit.cpuMs, seen).toBeLessThan(2 * ordinary.cpuMs + 50)
    // Wall time on a shared two-core machine also measures the test files running beside this one:
    // the health check may wait up to twice as long as behind ordinary pages (before, it waited seconds).
    expect(nearTheLimit.slowestHealthCheck, seen).toBeLessThan(2 * ordinary.slowestHealthCheck + 200)
  })

  it('show the date asked for of a series that runs to 9999, with its next dates', async () => {
    const html = await (await get(server, '/calendar/far-future?date=2200-12-06')).text()
    expect(html).toContain('Saturday, December 6, 2200')
    expect(html).toContain('href="/calendar/far-future?date=2200-12-13"')
  })
})

describe('the calendar feed', () => {
  /** The feed as fetched with this Host header (the address a subscriber used). */
  function feedAt(host: string): Promise<string> {
    const { hostname, port } = new URL(server.url)
    return new Promise((resolve, reject) => {
      http
        .get({ hostname, port, path: '/calendar.ics', headers: { host } }, (res) => {
          let body = ''
          res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk))
          res.on('end', () => resolve(body))
        })
        .on('error', reject)
    })
  }

  const uidsOf = (text: string) =>
    new ICAL.Component(ICAL.parse(text)).getAllSubcomponents('vevent').map((event) => String(event.getFirstPropertyValue('uid')))

  it('gives each event the same UID whatever address it is read at', async () => {
    const { port } = new URL(server.url)
    const byAddress = uidsOf(await feedAt(`127.0.0.1:${port}`))
    const byName = uidsOf(await feedAt(`localhost:${port}`))
    expect(byAddress.length).toBeGreaterThan(3)
    expect(byName).toEqual(byAddress)
    const ids = (await queryServerDatabase<{ id: string }>(server, 'select id from events')).map((row) => row.id)
    expect([...byAddress].sort()).toEqual([...ids].sort())
  })

  it('carries the series that runs to 9999 with its end', async () => {
    const feed = await feedAt(new URL(server.url).host)
    expect(feed.replace(/\r\n /g, '')).toMatch(/RRULE:FREQ=WEEKLY;UNTIL=99991225T\d{6}Z;BYDAY=SA/)
  })
})
