import type { ReactNode } from 'react'
import { Form, useLocation } from 'react-router'

/**
 * Sign out from a public page: the form names the page, and /logout comes back to it (as the old
 * marketplace did), so a manager signing out of the marketplace stays on the marketplace.
 */
export function SignOutForm({
  className,
  buttonClassName,
  children,
}: {
  className?: string
  buttonClassName: string
  children: ReactNode
}) {
  const location = useLocation()
  return (
    <Form method="post" action="/logout" className={className}>
      <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
      <button type="submit" className={buttonClassName}>
        {children}
      </button>
    </Form>
  )
}
