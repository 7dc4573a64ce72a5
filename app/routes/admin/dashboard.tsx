import { redirect, Link } from 'react-router'
import type { Route } from './+types/dashboard'
import { listOccurrencesOnDays } from '~/modules/events/events.queries.server'
import { formatOccurrenceWhen } from '~/modules/events/events.wording.server'
import { countVideosStillProcessing } from '~/modules/gallery/gallery.admin-queries.server'
import { countSampleContent, trashKindsFor } from '~/modules/trash/trash.server'
import { describeNewMessageNotice } from '~/modules/inbox/inbox.format'
import { countUnreadContactMessages } from '~/modules/inbox/inbox.queries.server'
import { configuredChannels } from '~/modules/inbox/inbox.service.server'
import { siteSettingsFor } from '~/modules/settings/settings.context.server'
import { canManage, homeFor, sectionsFor, type SectionName } from '~/platform/access'
import { requireUser } from '~/platform/auth.server'
import { addDays, formatDate, todayIn } from '~/platform/dates'
import { listNextScheduled } from '~/platform/publication.server'
import { kindOfTable, PUBLISHABLE_KIND_NAMES, PUBLISHABLE_KINDS } from '~/platform/publication'

export const meta: Route.MetaFunction = () => [{ title: 'Dashboard | Site admin' }]

/** The days 'this week' covers: today and the six after it. */
const WEEK_DAYS = 7

/** The dashboard's shortcuts, each shown to those who manage its section. */
const QUICK_LINKS: { section: SectionName; to: string; label: string }[] = [
  { section: 'news', to: '/admin/news/new', label: 'Add an article' },
  { section: 'gallery', to: '/admin/photos#upload', label: 'Add photos or videos' },
  { section: 'events', to: '/admin/events/new', label: 'Add an event' },
  { section: 'products', to: '/admin/products/new', label: 'Add a product' },
]

const SCHEDULED_SHOWN = 5

function plural(count: number, one: string, many: string) {
  return `${count} ${count === 1 ? one : many}`
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser({ request, context })
  // `/admin` is the admin area's front door (bookmarks, typed addresses): whoever may not see the
  // dashboard is sent on to their own first page instead of being refused at the door.
  if (!canManage(user, 'dashboard')) throw redirect(homeFor(user))
  const cards = sectionsFor(user)
    .filter((section) => section.name !== 'dashboard')
    .map(({ path, label, description }) => ({ path, label, description }))
  const { timeZone, email } = await siteSettingsFor(context)
  const today = todayIn(timeZone)

  // Each block only for those who manage its section.
  const scheduledKinds = PUBLISHABLE_KIND_NAMES.map((kind) => PUBLISHABLE_KINDS[kind]).filter((kind) =>
    canManage(user, kind.section),
  )
  const [scheduled, unreadMessages, videosProcessing, occurrences, sampleItems] = await Promise.all([
    listNextScheduled(
      scheduledKinds.map((kind) => kind.table),
      SCHEDULED_SHOWN,
    ),
    canManage(user, 'messages') ? countUnreadContactMessages() : null,
    canManage(user, 'gallery') ? countVideosStillProcessing() : null,
    canManage(user, 'events') ? listOccurrencesOnDays(today, addDays(today, WEEK_DAYS - 1), timeZone) : null,
    countSampleContent(trashKindsFor((section) => canManage(user, section))),
  ])
  return {
    name: user.name,
    cards,
    messages:
      unreadMessages === null
        ? null
        : { unread: unreadMessages, notified: describeNewMessageNotice(configuredChannels(), email).notified },
    videosProcessing,
    // The demo content a new site came with, out of the trash: marked here, never in public text.
    sampleItems,
    week:
      occurrences?.map((occurrence) => ({
        key: `${occurrence.eventId} ${occurrence.startsAt}`,
        editUrl: `/admin/events/${occurrence.eventId}`,
        title: occurrence.title,
        when: formatOccurrenceWhen(occurrence, timeZone),
        location: occurrence.location,
      })) ?? null,
    scheduled: scheduled.map((item) => ({
      key: `${item.table} ${item.id}`,
      editUrl: `${PUBLISHABLE_KINDS[kindOfTable(item.table)].adminPath}/${item.id}`,
      label: item.label,
      when: formatDate(item.publishAt, timeZone, 'dateTime'),
    })),
    quickLinks: QUICK_LINKS.filter((link) => canManage(user, link.section)).map(({ to, label }) => ({ to, label })),
  }
}

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  const { messages, videosProcessing, sampleItems, week, scheduled, quickLinks } = loaderData
  const attention = messages !== null || videosProcessing !== null || sampleItems > 0
  return (
    <div className="stack">
      <h1>Dashboard</h1>
      <p className="lead">
        Welcome, {loaderData.name}. New here? The <Link to="/admin/guide">guide</Link> shows a week’s tasks step by step.
      </p>

      {messages && !messages.notified ? (
        <p className="admin-notice admin-notice-warning">
          <strong>Nobody is told about new messages.</strong> They are only kept in the <Link to="/admin/messages">inbox</Link>.
          Ask whoever runs the site to set up e-mail.
        </p>
      ) : null}

      <div className="dashboard-grid">
        {attention ? (
          <section className="card dashboard-block" aria-labelledby="dashboard-attention">
            <h2 id="dashboard-attention">Needs attention</h2>
            <ul className="dashboard-counts">
              {messages ? (
                <li>
                  <Link to="/admin/messages" className={messages.unread > 0 ? 'dashboard-count-due' : undefined}>
                    {messages.unread === 0 ? 'No unread messages' : plural(messages.unread, 'unread message', 'unread messages')}
                  </Link>
                </li>
              ) : null}
              {videosProcessing !== null ? (
                <li>
                  <Link to="/admin/photos" className={videosProcessing > 0 ? 'dashboard-count-due' : undefined}>
                    {videosProcessing === 0
                      ? 'No videos being converted'
                      : `${plural(videosProcessing, 'video', 'videos')} still being converted`}
                  </Link>
                </li>
              ) : null}
              {sampleItems > 0 ? (
                <li>
                  <Link to="/admin/trash/sample-content" className="dashboard-count-due">
                    {plural(sampleItems, 'sample item is', 'sample items are')} still on the site: remove them
                  </Link>
                </li>
              ) : null}
            </ul>
          </section>
        ) : null}

        {week ? (
          <section className="card dashboard-block" aria-labelledby="dashboard-week">
            <h2 id="dashboard-week">Events this week</h2>
            {week.length === 0 ? (
              <p className="muted">Nothing on the calendar in the next {WEEK_DAYS} days.</p>
            ) : (
              <ul className="dashboard-events">
                {week.map((occurrence) => (
                  <li key={occurrence.key}>
                    <span className="dashboard-event-when">{occurrence.when}</span>{' '}
                    <Link to={occurrence.editUrl}>{occurrence.title}</Link>
                    {occurrence.location ? <span className="dashboard-event-where">{occurrence.location}</span> : null}
                  </li>
                ))}
              </ul>
            )}
            <p>
              <Link to="/admin/events" className="standalone-link">
                All events
              </Link>
            </p>
          </section>
        ) : null}

        {scheduled.length > 0 ? (
          <section className="card dashboard-block" aria-labelledby="dashboard-scheduled">
            <h2 id="dashboard-scheduled">Scheduled next</h2>
            <ul className="dashboard-events">
              {scheduled.map((item) => (
                <li key={item.key}>
                  <span className="dashboard-event-when">{item.when}</span> <Link to={item.editUrl}>{item.label}</Link>
                </li>
              ))}
            </ul>
          </section>
        ) : null}

        {quickLinks.length > 0 ? (
          <section className="card dashboard-block" aria-labelledby="dashboard-quick">
            <h2 id="dashboard-quick">Quick links</h2>
            <ul className="dashboard-quick-links">
              {quickLinks.map((link) => (
                <li key={link.to}>
                  <Link to={link.to} className="button-secondary button-small">
                    {link.label}
                  </Link>
                </li>
              ))}
            </ul>
          </section>
        ) : null}
      </div>

      <section aria-labelledby="dashboard-sections" className="admin-section">
        <h2 id="dashboard-sections" className="dashboard-sections-title">
          Everything you can manage
        </h2>
        <ul className="card-grid">
          {loaderData.cards.map((card) => (
            <li key={card.path} className="card admin-card">
              <h3>
                <Link to={card.path}>{card.label}</Link>
              </h3>
              {card.description ? <p className="muted">{card.description}</p> : null}
            </li>
          ))}
        </ul>
      </section>
    </div>
  )
}
