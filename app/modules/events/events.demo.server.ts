import type { Db } from '~/platform/db.server'
import {
  addDays,
  addMonths,
  daysInMonth,
  monthOf,
  parsePlainTime,
  todayIn,
  weekdayOf,
  type PlainDate,
  type PlainTime,
} from '~/platform/dates'
import { EventSchema, type EventFormValues } from './events.schema'
import { insertEvent } from './events.service.server'

const SATURDAY = 6
const TUESDAY = 2

/** The last such weekday (0 = Sunday) of a month. */
function lastWeekdayOf(month: string, weekday: number): PlainDate {
  const last = `${month}-${String(daysInMonth(month)).padStart(2, '0')}`
  return addDays(last, -((weekdayOf(last) - weekday + 7) % 7))
}

/** The n-th such weekday of a month. */
function nthWeekdayOf(month: string, weekday: number, n: number): PlainDate {
  const first = `${month}-01`
  return addDays(first, ((weekday - weekdayOf(first) + 7) % 7) + 7 * (n - 1))
}

/** The first such weekday at least `days` days after `date`. */
function weekdayAfter(date: PlainDate, days: number, weekday: number): PlainDate {
  const from = addDays(date, days)
  return addDays(from, (weekday - weekdayOf(from) + 7) % 7)
}

type Half = 'AM' | 'PM' | undefined

function to24Hours(hour: string, minute: string | undefined, half: Half): PlainTime | null {
  const h = half === undefined ? Number(hour) : (Number(hour) % 12) + (half === 'PM' ? 12 : 0)
  return parsePlainTime(`${String(h).padStart(2, '0')}:${minute ?? '00'}`)
}

const DEFAULT_HOURS = { start: '09:00', end: '12:00' }

/**
 * The distribution's hours from the contact page's setting ('Last Saturday of every month,
 * 9:00 AM - 12:00 PM'); 9:00 to 12:00 when the setting names no hours.
 */
export function distributionTimes(hours: string): { start: PlainTime; end: PlainTime } {
  const time = /(\d{1,2})(?::(\d{2}))?\s*([AaPp][Mm])?/.source
  const match = new RegExp(`${time}\\s*(?:-|–|to)\\s*${time}`).exec(hours)
  if (!match) return DEFAULT_HOURS
  const [, h1, m1, half1, h2, m2, half2] = match.map((part) => part?.toUpperCase())
  const end = to24Hours(h2, m2, half2 as Half)
  // '9 - 12 PM': the start shares the end's half of the day unless it would then come after the end.
  let start = to24Hours(h1, m1, (half1 ?? half2) as Half)
  if (!half1 && start && end && start > end) start = to24Hours(h1, m1, 'AM')
  return start && end && start < end ? { start, end } : DEFAULT_HOURS
}

/**
 * Adds the demo events to a new site (inside the seed transaction): the monthly distribution
 * on the last Saturday, the survivors' support meeting, a youth market day and a fundraiser.
 */
export async function seedEvents(
  trx: Db,
  settings: { distributionHours: string; location: string; timeZone: string },
  now: Date = new Date(),
): Promise<void> {
  const today = todayIn(settings.timeZone, now)
  const thisMonth = monthOf(today)
  const hours = distributionTimes(settings.distributionHours)
  const place = (name: string) => (settings.location ? `${name}, ${settings.location}` : name)
  const events: EventFormValues[] = [
    {
      title: 'Monthly Food and Clothing Distribution',
      description: `On the last Saturday of every month our volunteers hand out groceries, toiletries and clothing to families in need. Everyone is welcome; volunteers are welcome too.`,
      startDate: lastWeekdayOf(addMonths(thisMonth, -1), SATURDAY),
      startTime: hours.start,
      endTime: hours.end,
      location: place('Ministry Centre'),
      type: 'event',
      repeat: 'monthly-last-weekday',
      // Volunteers and families sign up per date, so the team knows how many to expect.
      takesSignups: true,
      signupLimit: 40,
      signupContact: 'either',
      signupAsksPartySize: true,
    },
    {
      title: 'Cancer Survivors Support Group',
      description: `Survivors, family members and caregivers meet to share their stories and encourage one another. Light refreshments are served.`,
      startDate: nthWeekdayOf(addMonths(thisMonth, -1), TUESDAY, 2),
      startTime: '18:00',
      endTime: '19:30',
      location: place('Ministry Centre, meeting room'),
      type: 'meeting',
      repeat: 'monthly-weekday',
    },
    {
      title: 'Youth Market Day',
      description: `Young entrepreneurs from our programme sell their baked goods, soap, jewellery and crafts. Come and support them!`,
      startDate: weekdayAfter(today, 14, SATURDAY),
      startTime: '10:00',
      endTime: '14:00',
      location: place('Ministry Centre courtyard'),
      type: 'celebration',
    },
    {
      title: 'Hope Gala Fundraising Dinner',
      description: `An evening of music, dinner and stories from the year, raising funds for the cancer support fund and the monthly distribution.`,
      startDate: weekdayAfter(today, 42, SATURDAY),
      startTime: '19:00',
      endTime: '22:00',
      location: place('Community Hall'),
      type: 'fundraiser',
    },
  ]
  for (const event of events) {
    const { id } = await insertEvent(trx, EventSchema.parse(event), settings.timeZone)
    // Marked for administrators only: visitors read the demo text as it is.
    await trx.updateTable('events').set({ isSample: 1 }).where('id', '=', id).execute()
  }
}
