import { data, type MiddlewareFunction } from 'react-router'

/**
 * Root middleware: a URL whose parameters (a slug, an id, a file path) contain U+0000 names
 * nothing on this site, so it is not found. Checked once here, before any loader hands the value
 * to the database: PostgreSQL refuses the character in text and the query would fail with a 500.
 */
export const notFoundForNulInParams: MiddlewareFunction<Response> = ({ params }, next) => {
  if (Object.values(params).some((value) => value?.includes('\u0000'))) throw data(null, { status: 404 })
  return next()
}
