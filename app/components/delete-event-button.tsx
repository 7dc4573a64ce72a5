import { useLocation } from 'react-router'
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
  label = 'Delete',
  className,
}: {
  id: string
  repeats: boolean
  /** The date the button is shown at: 'YYYY-MM-DD' and as people read it ('Sat, Nov 28'). */
  occurrence?: { date: string; label: string }
  /** 'calendar' to go back to the calendar afterwards; the admin list otherwise. */
  from?: 'calendar'
  label?: string
  className?: string
}) {
  const fields = { id, ...(occurrence ? { date: occurrence.date } : {}), ...(from ? { from } : {}) }
  // On the admin list, its filter and page go with the form, to come back to them.
  const { pathname, search } = useLocation()
  const common = {
    action: pathname === '/admin/events' ? `${pathname}${search}` : '/admin/events',
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
