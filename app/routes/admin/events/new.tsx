import { data } from 'react-router'
import { BackLink } from '~/components/back-link'
import { getSiteOrigin } from '~/platform/site-url.server'
import { withSiteLinksRelative } from '~/platform/site-links'
import type { Route } from './+types/new'
import { auditSourceOf, recordAuditEvent } from '~/modules/audit/audit.service.server'
import { EventForm } from './event-form'
import { EventSchema } from '~/modules/events/events.schema'
import { createEvent } from '~/modules/events/events.service.server'
import { siteSettingsFor } from '~/modules/settings/settings.context.server'
import { publishingOf } from '~/platform/publication.server'
import { requireAccess } from '~/platform/auth.server'
import { monthOf, parsePlainDate } from '~/platform/dates'
import { logger } from '~/platform/logger.server'
import { parseFormSubmission } from '~/platform/form-submission.server'
import { redirectWithToast } from '~/platform/toast.server'
import adminEventsStylesUrl from '~/styles/admin-events.css?url'
import { declareQueryParams } from '~/platform/query-params'

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: adminEventsStylesUrl }]

export const meta: Route.MetaFunction = () => [{ title: 'Add event | Site admin' }]

/** `?date=2026-11-28` pre-fills the day (a day clicked on the calendar); `?from=calendar` goes back there. */
export const queryParams = declareQueryParams('date', 'from')

function openedWith(request: Request) {
  const { date, from } = queryParams.read(request)
  return { date: parsePlainDate(date), fromCalendar: from === 'calendar' }
}

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAccess({ request, context }, 'events')
  const { timeZone } = await siteSettingsFor(context)
  const { date, fromCalendar } = openedWith(request)
  return { date, timeZone, cancelTo: fromCalendar ? `/calendar${date ? `?month=${monthOf(date)}` : ''}` : '/admin/events' }
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireAccess({ request, context }, 'events')
  const submission = await parseFormSubmission(request, EventSchema)
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  const { timeZone } = await siteSettingsFor(context)
  let created: { id: string }
  try {
    created = await createEvent(
      {
        ...withSiteLinksRelative(submission.value, 'description', getSiteOrigin(request, context)),
        ...(await publishingOf(submission.value, timeZone)),
      },
      timeZone,
    )
  } catch (error) {
    logger.error({ err: error }, 'event could not be saved')
    return data({ result: submission.reply({ formErrors: ['Failed to add event'] }) }, { status: 500 })
  }
  await recordAuditEvent({
    by: auditSourceOf(user, context),
    action: 'event.created',
    target: { type: 'event', id: created.id, label: submission.value.title },
  })
  const back = openedWith(request).fromCalendar ? `/calendar?month=${monthOf(submission.value.startDate)}` : '/admin/events'
  return redirectWithToast(back, 'Event added.')
}

export default function NewEvent({ loaderData, actionData }: Route.ComponentProps) {
  const { date, timeZone, cancelTo } = loaderData
  return (
    <div className="stack">
      <BackLink to="/admin/events">All events</BackLink>
      <h1>Add event</h1>
      <EventForm
        lastResult={actionData?.result}
        defaultValue={date ? { title: '', description: '', location: '', startDate: date, startTime: '' } : undefined}
        timeZone={timeZone}
        cancelTo={cancelTo}
        submitLabel="Add Event"
        submittingLabel="Adding..."
      />
    </div>
  )
}
