import { data } from 'react-router'

/** Any address no other route claims: the branded 404 page (root ErrorBoundary) with status 404. */
export function loader(): never {
  throw data(null, { status: 404 })
}

export const action = loader

export default function NotFound() {
  return null
}
