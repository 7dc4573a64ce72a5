import { ConfirmButton } from './confirm-button'

/**
 * Deletes an event after 'Are you sure you want to delete this event?'. For a series shown at
 * one of its dates, the dialog offers that date only (it becomes a skipped date) or the whole series.
 */
export function DeleteEventButton({
  id,
  repeats,
  occurrence,
  from,
  action,
  label = 'Delete',
  className,
}: {
  id: string
  repeats: boolean
  /** The date the button is shown at: 'YYYY-MM-DD' and as people read it ('Sat, Nov 28'). */
  occurrence?: { date: string; label: string }
  /** 'calendar' to go back to the calendar afterwards; the admin list otherwise. */
  from?: 'calendar'
  /**
   * The events list's address, from any other page. On the list itself the form posts to the
   * page's own address, so that the delete comes back to its filter and page.
   */
  action?: '/admin/events'
  label?: string
  className?: string
}) {
  const fields = { id, ...(occurrence ? { date: occurrence.date } : {}), ...(from ? { from } : {}) }
  const common = {
    action,
    label,
    confirmText: 'Are you sure you want to delete this event?',
    className,
  }
  if (repeats && occurrence) {
    return (
      <ConfirmButton
        {...common}
        hiddenFields={fields}
        choices={[
          { name: 'scope', value: 'occurrence', label: `Only ${occurrence.label}` },
          { name: 'scope', value: 'series', label: 'The whole series' },
        ]}
      />
    )
  }
  return (
    <ConfirmButton
      {...common}
      hiddenFields={{ ...fields, scope: 'series' }}
      confirmLabel={repeats ? 'Delete the whole series' : 'Delete'}
    />
  )
}
