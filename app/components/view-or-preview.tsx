import { Form, Link } from 'react-router'
import type { PublishableTable, PublishChoice } from '~/platform/publication'

/**
 * An edit page's way to its item's public page: a link once it is published; before that
 * "Preview", which opens the page as it will look, with a link to share.
 */
export function ViewOrPreview({
  table,
  id,
  path,
  publish,
  viewLabel = 'View on the site',
}: {
  table: PublishableTable
  id: string
  path: string
  publish: PublishChoice
  viewLabel?: string
}) {
  if (publish === 'now')
    return (
      <Link to={path} className="standalone-link">
        {viewLabel}
      </Link>
    )
  return (
    <Form method="post" action="/admin/previews" reloadDocument>
      <input type="hidden" name="table" value={table} />
      <input type="hidden" name="id" value={id} />
      <button type="submit" className="button-secondary">
        Preview
      </button>
    </Form>
  )
}
