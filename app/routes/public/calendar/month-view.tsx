import { Link } from 'react-router'
import { OPENED_OVER_LIST } from '~/components/route-dialog'
import type { CalendarMonth } from '~/modules/events/events.month-view.server'
import type { Shared } from '~/platform/shared'

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday']

type Day = Shared<CalendarMonth>['weeks'][number][number]

export type MonthViewProps = Pick<
  Shared<CalendarMonth>,
  'month' | 'monthLabel' | 'previous' | 'next' | 'isCurrentMonth' | 'weeks'
> & {
  /** An administrator's month has a button to add an event on each day. */
  admin: boolean
}

/** The calendar's month: its navigation, its grid and the agenda of its days with events. */
export function MonthView({ month, monthLabel, previous, next, isCurrentMonth, weeks, admin }: MonthViewProps) {
  const daysWithEvents = weeks.flat().filter((day) => day.inMonth && day.events.length > 0)
  return (
    <section className="calendar-month" aria-labelledby="calendar-month-label">
      <div className="calendar-toolbar">
        <h2 id="calendar-month-label" aria-live="polite">
          {monthLabel}
        </h2>
        <nav aria-label="Months" className="calendar-nav">
          <Link to={`/calendar?month=${previous.month}`} className="button-secondary button-small" preventScrollReset>
            <span aria-hidden="true">‹ </span>Previous<span className="visually-hidden"> month, {previous.label}</span>
          </Link>
          <Link
            to="/calendar"
            className="button-secondary button-small"
            aria-current={isCurrentMonth ? 'date' : undefined}
            preventScrollReset
          >
            Today
          </Link>
          <Link to={`/calendar?month=${next.month}`} className="button-secondary button-small" preventScrollReset>
            Next<span className="visually-hidden"> month, {next.label}</span>
            <span aria-hidden="true"> ›</span>
          </Link>
        </nav>
      </div>

      <table className="calendar-grid">
        <caption className="visually-hidden">Events in {monthLabel}</caption>
        <thead>
          <tr>
            {WEEKDAYS.map((weekday) => (
              <th key={weekday} scope="col">
                <abbr title={weekday}>{weekday.slice(0, 3)}</abbr>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {weeks.map((week) => (
            <tr key={week[0].date}>
              {week.map((day) => (
                <DayCell key={day.date} day={day} admin={admin} />
              ))}
            </tr>
          ))}
        </tbody>
      </table>

      <div className="calendar-agenda">
        {daysWithEvents.length === 0 ? (
          <p className="calendar-empty">No events in {monthLabel}.</p>
        ) : (
          <ol className="calendar-agenda-days">
            {daysWithEvents.map((day) => (
              <li key={day.date} className={day.isToday ? 'calendar-agenda-day is-today' : 'calendar-agenda-day'}>
                <h3 className="calendar-agenda-date">
                  <time dateTime={day.date}>{day.label}</time>
                  {day.isToday ? <span className="calendar-today-badge">Today</span> : null}
                </h3>
                <ul className="calendar-agenda-events">
                  {day.events.map((e) => (
                    <li key={e.key}>
                      <Link to={e.href} state={OPENED_OVER_LIST} preventScrollReset className="calendar-agenda-event">
                        <span className="calendar-agenda-time">{e.time}</span>
                        <span className="calendar-agenda-title">{e.title}</span>
                        <span className="calendar-agenda-location">{e.location}</span>
                      </Link>
                    </li>
                  ))}
                </ul>
              </li>
            ))}
          </ol>
        )}
        {admin ? (
          <p>
            <Link to={`/admin/events/new?from=calendar&date=${month}-01`} className="button-secondary button-small">
              <span aria-hidden="true">+</span> Add an event in {monthLabel}
            </Link>
          </p>
        ) : null}
      </div>
    </section>
  )
}

function DayCell({ day, admin }: { day: Day; admin: boolean }) {
  const className = ['calendar-day', day.inMonth ? '' : 'is-other-month', day.isToday ? 'is-today' : ''].filter(Boolean).join(' ')
  const number = (
    <time dateTime={day.date} className="calendar-day-number">
      <span aria-hidden="true">{day.day}</span>
      <span className="visually-hidden">{day.label}</span>
    </time>
  )
  return (
    <td className={className} aria-current={day.isToday ? 'date' : undefined}>
      {/* A visitor's cell holds no wrapper: a month has up to 42 cells. */}
      {admin ? (
        <div className="calendar-day-head">
          {number}
          <Link
            to={`/admin/events/new?from=calendar&date=${day.date}`}
            className="calendar-add"
            aria-label={`Add an event on ${day.label}`}
          >
            +
          </Link>
        </div>
      ) : (
        number
      )}
      {day.events.length > 0 ? (
        <ul className="calendar-chips">
          {day.events.map((e) => (
            <li key={e.key}>
              <Link
                to={e.href}
                state={OPENED_OVER_LIST}
                preventScrollReset
                className={`calendar-chip event-type-${e.type}`}
                title={`${e.time} ${e.title}`}
              >
                <span className="calendar-chip-time">{e.time}</span>
                <span className="calendar-chip-title">{e.title}</span>
              </Link>
            </li>
          ))}
        </ul>
      ) : null}
    </td>
  )
}
