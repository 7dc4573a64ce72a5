import type { ReactNode } from 'react'
import { Link } from 'react-router'
import type { ResponsiveImageData } from '~/platform/media/image-types'
import { ConfirmButton } from './confirm-button'
import { ResponsiveImage } from './responsive-image'

/**
 * A table of the admin area (admin.css stacks it into cards on phones, each cell labelled by its
 * `data-label`). `actions` adds a last column, for buttons, whose heading only screen readers hear.
 */
export function AdminTable({
  caption,
  columns,
  actions = false,
  className,
  children,
}: {
  /** Read by screen readers only. */
  caption: string
  columns: readonly string[]
  actions?: boolean
  className?: string
  /** The rows. */
  children: ReactNode
}) {
  return (
    <table className={className ? `admin-table ${className}` : 'admin-table'}>
      <caption className="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          {columns.map((column) => (
            <th key={column} scope="col">
              {column}
            </th>
          ))}
          {actions ? (
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          ) : null}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  )
}

/** A row's picture: its thumbnail, or an empty frame of the same size. */
export function ThumbnailCell({ image }: { image: ResponsiveImageData | null }) {
  return (
    <td className="admin-media-thumb">
      {image ? <ResponsiveImage image={image} sizes="6rem" /> : <span className="admin-media-placeholder" aria-hidden="true" />}
    </td>
  )
}

/** A row's last cell: Edit, and Delete once confirmed (the form posts `deleteFields` to the page). */
export function EditDeleteCell({
  editTo,
  name,
  deleteFields,
  confirmText,
}: {
  editTo: string
  /** What the row is called, for the Edit link's accessible name. */
  name: string
  deleteFields: Record<string, string>
  confirmText: string
}) {
  return (
    <td>
      <div className="button-row">
        <Link to={editTo} className="button-secondary button-small" aria-label={`Edit ${name}`}>
          Edit
        </Link>
        <ConfirmButton
          hiddenFields={deleteFields}
          label="Delete"
          confirmText={confirmText}
          confirmLabel="Delete"
          className="button-danger button-small"
        />
      </div>
    </td>
  )
}

/** A tag after a row's title, with a space before it: "Volunteer Day Report image", not "…Reportimage", when read or copied. */
export function AdminBadge({ className, children }: { className?: string; children: ReactNode }) {
  return (
    <>
      {' '}
      <span className={className ? `admin-badge ${className}` : 'admin-badge'}>{children}</span>
    </>
  )
}
