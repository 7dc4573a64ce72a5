import { renderToStaticMarkup } from 'react-dom/server'
import { ErrorList } from '~/components/forms'
import publicStylesheetUrl from '~/styles/public.css?url'
import { retryAfterHeaders } from '~/platform/rate-limit.server'
import { knownSignInRefusalSeconds, tooManyAttemptsMessage } from '~/modules/users/sign-in.server'
import { CACHE_PROFILES } from '~/platform/http-caching'

/**
 * A page posted to /login by a client this process already knows to be over its sign-in limit
 * gets this small fixed page, before React Router is asked: the body is not read, nothing is
 * written and only the form's error box is drawn, so a flood of guesses costs the server almost nothing and the
 * pages visitors read keep their speed (docs/performance.md). Posts through the form's
 * JavaScript (`/login.data`) reach the action, which refuses them from the same memory, also
 * without a write. Null when the request is anything else.
 */
export function answerKnownRefusedSignIn(request: Request, clientIp: string): Response | null {
  if (request.method !== 'POST') return null
  // React Router matches paths whatever their case and trailing slash.
  if (new URL(request.url).pathname.replace(/\/+$/, '').toLowerCase() !== '/login') return null
  const retryAfterSeconds = knownSignInRefusalSeconds(clientIp)
  if (retryAfterSeconds === 0) return null
  return new Response(refusedSignInPage(tooManyAttemptsMessage(retryAfterSeconds)), {
    status: 429,
    headers: {
      ...retryAfterHeaders({ retryAfterSeconds }),
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': CACHE_PROFILES.momentary,
    },
  })
}

/** The sign-in page's heading and its error box, without the form it would refuse. */
function refusedSignInPage(message: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Sign in</title>
<link rel="stylesheet" href="${publicStylesheetUrl}">
</head>
<body>
<main id="main" class="container section auth-page">
<h1>Sign in</h1>
<div class="form">
${renderToStaticMarkup(<ErrorList errors={[message]} variant="form" />)}
<p class="button-row"><a class="button" href="/login">Back to sign in</a> <a class="button button-secondary" href="/">Home</a></p>
</div>
</main>
</body>
</html>
`
}
