import { Form, Link } from 'react-router'
import type { Route } from './+types/sample-content'
import { auditSourceOf, recordAuditEvent } from '~/modules/audit/audit.service.server'
import { countSignupsOfEvents } from '~/modules/events/signups.queries.server'
import { TRASH_DAYS } from '~/modules/trash/trash-days'
import { listSampleContent, moveSampleContentToTrash, trashKindsFor } from '~/modules/trash/trash.server'
import { canManage } from '~/platform/access'
import { requireAccess } from '~/platform/auth.server'
import { PUBLISHABLE_KIND_NAMES, PUBLISHABLE_KINDS } from '~/platform/publication'
import { redirectWithToast } from '~/platform/toast.server'

export const meta: Route.MetaFunction = () => [{ title: 'Remove the sample content | Site admin' }]

function itemsWord(count: number): string {
  return count === 1 ? '1 sample item' : `${count} sample items`
}

/** What goes: the demo content the user may manage, out of the trash, by kind. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireAccess({ request, context }, 'trash')
  const items = await listSampleContent(trashKindsFor((section) => canManage(user, section)))
  // Real people may have signed up for a demo event (the distribution takes sign-ups): said before it goes.
  const signups = await countSignupsOfEvents(items.filter((item) => item.kind === 'event').map((item) => item.id))
  const groups = PUBLISHABLE_KIND_NAMES.map((kind) => ({
    kind,
    heading: PUBLISHABLE_KINDS[kind].searchLabel,
    items: items.filter((item) => item.kind === kind).map(({ id, label }) => ({ id, label, signups: signups.get(id) ?? 0 })),
  })).filter((group) => group.items.length > 0)
  return { total: items.length, groups }
}

/** Moves all of it to the trash at once, where each item can be restored. */
export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireAccess({ request, context }, 'trash')
  const moved = await moveSampleContentToTrash(trashKindsFor((section) => canManage(user, section)))
  if (moved === 0) return redirectWithToast('/admin', 'There is no sample content left.')
  await recordAuditEvent({ by: auditSourceOf(user, context), action: 'sample-content.trashed', detail: { moved } })
  return redirectWithToast('/admin/trash', `${itemsWord(moved)} moved to the trash. Restore any you want to keep.`)
}

export default function SampleContent({ loaderData }: Route.ComponentProps) {
  const { total, groups } = loaderData
  return (
    <div className="stack">
      <h1>Remove the sample content</h1>
      {total === 0 ? (
        <p>
          There is no sample content left. <Link to="/admin">Back to the dashboard</Link>
        </p>
      ) : (
        <>
          <p>
            These {itemsWord(total)} came with the site to show how it works. They go to the trash, where you can restore any of
            them for {TRASH_DAYS} days; after that they are deleted for good. The page texts and settings stay as they are.
          </p>
          {groups.map((group) => (
            <section key={group.kind} className="card stack" aria-labelledby={`sample-${group.kind}`}>
              <h2 id={`sample-${group.kind}`}>
                {group.heading} ({group.items.length})
              </h2>
              <ul>
                {group.items.map((item) => (
                  <li key={item.id}>
                    {item.label}
                    {item.signups > 0 ? (
                      <strong>
                        {' '}
                        ({item.signups === 1 ? '1 sign-up' : `${item.signups} sign-ups`}: deleted with it once it leaves the
                        trash)
                      </strong>
                    ) : null}
                  </li>
                ))}
              </ul>
            </section>
          ))}
          <Form method="post" className="button-row">
            <button type="submit" className="button-danger">
              Move all {itemsWord(total)} to the trash
            </button>
            <Link to="/admin" className="button-secondary">
              Keep them
            </Link>
          </Form>
        </>
      )}
    </div>
  )
}
