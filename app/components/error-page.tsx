import { isRouteErrorResponse, Link } from 'react-router'

const HEADINGS: Record<number, string> = {
  400: 'Bad request',
  403: 'Permission denied',
  404: 'Page not found',
  405: 'Not allowed',
  413: 'Too large',
  429: 'Too many requests',
}

/**
 * What a visitor sees when something goes wrong: a plain explanation and a way home. Never the
 * error's message or stack (a thrown Response's text is shown, as it is written for visitors).
 */
export function ErrorContent({ error }: { error: unknown }) {
  const status = isRouteErrorResponse(error) ? error.status : 500
  const heading = HEADINGS[status] ?? 'Unexpected Application Error!'
  const message =
    status === 404
      ? 'Sorry, we could not find the page you were looking for. It may have moved or no longer exist.'
      : isRouteErrorResponse(error) && status < 500 && typeof error.data === 'string' && error.data
        ? error.data
        : 'Sorry, something went wrong on our side. Please try again in a moment.'
  return (
    <div className="container error-page">
      <p className="error-code">Error {status}</p>
      <h1>{heading}</h1>
      <p className="lead">{message}</p>
      <div className="button-row">
        <Link to="/" className="button">
          Go to the home page
        </Link>
        <Link to="/contact" className="button-secondary">
          Contact us
        </Link>
      </div>
    </div>
  )
}
