import { z } from 'zod'
import type { EventRepeatValue, EventTypeValue } from '~/platform/db-schema'
import { daysInMonth, parsePlainTime, plainDateProblem } from '~/platform/dates'
import { requiredText, text } from '~/platform/form-schema'
import { checkPublishChoice, publishChoiceFields } from '~/platform/publication'
import { signupSettingsFields } from './signups.schema'

/** Event types as the old site had them; each is shown as a tag. */
export const EVENT_TYPE_OPTIONS = [
  { value: 'general', label: 'General' },
  { value: 'meeting', label: 'Meeting' },
  { value: 'celebration', label: 'Celebration' },
  { value: 'deadline', label: 'Deadline' },
  { value: 'fundraiser', label: 'Fundraiser' },
  { value: 'event', label: 'Event' },
] as const satisfies ReadonlyArray<{ value: EventTypeValue; label: string }>

/** The tag shown for a type ('Event' when the type is unknown). */
export function eventTypeLabel(type: string): string {
  return EVENT_TYPE_OPTIONS.find((option) => option.value === type)?.label ?? 'Event'
}

export const REPEAT_OPTIONS = [
  { value: 'none', label: 'Does not repeat' },
  { value: 'weekly', label: 'Every week, on the same weekday' },
  { value: 'monthly-date', label: 'Every month, on the same date' },
  { value: 'monthly-weekday', label: 'Every month, on the same weekday (e.g. the second Tuesday)' },
  { value: 'monthly-last-weekday', label: 'Every month, on the last weekday (e.g. the last Saturday)' },
] as const satisfies ReadonlyArray<{ value: EventRepeatValue; label: string }>

export const REPEAT_END_OPTIONS = [
  { value: 'never', label: 'Never' },
  { value: 'on-date', label: 'On a date' },
  { value: 'after-count', label: 'After a number of times' },
] as const

/** A series may have at most this many occurrences when it ends after a count. */
export const REPEAT_COUNT_MAX = 500

/** How many events the calendar's sidebar lists; the home page's strip shows more. */
export const CALENDAR_SIDEBAR_LIMIT = 5
export const HOME_UPCOMING_LIMIT = 8

const values = <T extends ReadonlyArray<{ value: string }>>(options: T) =>
  options.map((option) => option.value) as unknown as [T[number]['value'], ...T[number]['value'][]]

const date = (label: string) =>
  text({ error: `${label} is required` })
    .trim()
    .superRefine((v, ctx) => {
      const problem = plainDateProblem(v)
      if (problem) ctx.addIssue({ code: 'custom', message: `${label} ${problem}` })
    })

const time = (label: string) =>
  text({ error: `${label} is required` })
    .trim()
    .refine((v) => parsePlainTime(v) !== null, `${label} must be a time, e.g. 09:30`)

/** True when the day is the last of its weekday in its month (the last Saturday, say). */
export function isLastWeekdayOfMonth(day: string): boolean {
  return Number(day.slice(8, 10)) + 7 > daysInMonth(day.slice(0, 7))
}

/**
 * The event form (admin): dates and times are the site's local time; the server turns them
 * into UTC. Conform turns empty fields into undefined and numbers into numbers before this runs.
 * An event without a start time is an all-day event (the old site's form asked for a date only).
 */
export const EventSchema = z
  .object({
    title: requiredText('Title', 200),
    description: requiredText('Description', 5_000),
    startDate: date('Start date'),
    startTime: time('Start time').optional(),
    endDate: date('End date').optional(),
    endTime: time('End time').optional(),
    location: requiredText('Location', 200),
    type: z.enum(values(EVENT_TYPE_OPTIONS), { error: 'Choose a type' }).default('general'),
    repeat: z.enum(values(REPEAT_OPTIONS), { error: 'Choose how the event repeats' }).default('none'),
    repeatEnds: z.enum(values(REPEAT_END_OPTIONS), { error: 'Choose when the repeating ends' }).default('never'),
    repeatUntil: date('Last date').optional(),
    repeatCount: z
      .number({ error: 'Number of times must be a whole number' })
      .int('Number of times must be a whole number')
      .min(1, 'Number of times must be at least 1')
      .max(REPEAT_COUNT_MAX, `Number of times must be at most ${REPEAT_COUNT_MAX}`)
      .optional(),
    /** Dates taken out of the series; the edit form lists them with a box to keep each. */
    skippedDates: z.array(date('Skipped date')).max(REPEAT_COUNT_MAX).default([]),
    /** One more date to take out of the series. */
    skipDate: date('Date to skip').optional(),
    ...signupSettingsFields,
    ...publishChoiceFields,
  })
  .superRefine((event, ctx) => {
    checkPublishChoice(event, ctx)
    if (!event.startTime) {
      if (event.endTime) {
        ctx.addIssue({ code: 'custom', path: ['startTime'], message: 'Start time is required when an end time is given' })
      }
      if (event.endDate && event.endDate < event.startDate) {
        ctx.addIssue({ code: 'custom', path: ['endDate'], message: 'The end must not be before the start' })
      }
    } else if (event.endDate && !event.endTime) {
      ctx.addIssue({ code: 'custom', path: ['endTime'], message: 'End time is required when an end date is given' })
    } else if (
      event.endTime &&
      `${event.endDate ?? event.startDate}T${event.endTime}` < `${event.startDate}T${event.startTime}`
    ) {
      ctx.addIssue({ code: 'custom', path: ['endTime'], message: 'The end must not be before the start' })
    }
    if (event.repeat === 'none') return
    if (event.repeat === 'monthly-last-weekday' && !isLastWeekdayOfMonth(event.startDate)) {
      ctx.addIssue({
        code: 'custom',
        path: ['repeat'],
        message: 'For "the last weekday", the start date must be the last such weekday of its month',
      })
    }
    if (event.repeatEnds === 'on-date') {
      if (!event.repeatUntil) {
        ctx.addIssue({ code: 'custom', path: ['repeatUntil'], message: 'Last date is required' })
      } else if (event.repeatUntil < event.startDate) {
        ctx.addIssue({ code: 'custom', path: ['repeatUntil'], message: 'The last date must not be before the start date' })
      }
    }
    if (event.repeatEnds === 'after-count' && event.repeatCount === undefined) {
      ctx.addIssue({ code: 'custom', path: ['repeatCount'], message: 'Number of times is required' })
    }
  })

export type EventInput = z.infer<typeof EventSchema>
export type EventFormValues = z.input<typeof EventSchema>

/** Deleting from the admin list or the calendar: the whole event, or one date of a series. */
export const DeleteEventSchema = z
  .object({
    id: text({ error: 'Event ID is required for deletion' }).trim().min(1, 'Event ID is required for deletion').max(100),
    scope: z.enum(['series', 'occurrence']).default('series'),
    date: date('Date').optional(),
    /** Where the request came from, to go back there: the calendar, or the admin list. */
    from: z.enum(['calendar']).optional(),
  })
  .refine((v) => v.scope === 'series' || v.date !== undefined, { path: ['date'], message: 'Date is required' })
