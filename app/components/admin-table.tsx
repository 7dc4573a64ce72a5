import type { ReactNode } from 'react'

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
