import { createElement } from 'react'
import { renderToString } from 'react-dom/server'
import { MemoryRouter } from 'react-router'
import { describe, expect, it } from 'vitest'
import { ErrorContent } from './error-page'

function render(error: unknown) {
  return renderToString(createElement(MemoryRouter, null, createElement(ErrorContent, { error })))
}

function routeError(status: number, data: unknown) {
  return { status, statusText: '', internal: false, data }
}

describe('the error page', () => {
  it("shows the old site's heading for a server fault and nothing of the error itself", () => {
    const error = new Error('password=hunter2')
    error.stack = 'Error: password=hunter2\n    at loader (/srv/app/routes/secret.ts:12:7)'
    const html = render(error)
    expect(html).toContain('Unexpected Application Error!')
    expect(html).not.toContain('hunter2')
    expect(html).not.toContain('secret.ts')
  })

  it('says a missing page was not found and links home', () => {
    const html = render(routeError(404, null))
    expect(html).toContain('Page not found')
    expect(html).toContain('href="/"')
  })

  it('shows the text a route wrote for visitors with a 4xx answer, never a 5xx one', () => {
    expect(render(routeError(403, 'You do not have permission to open this page.'))).toContain(
      'You do not have permission to open this page.',
    )
    expect(render(routeError(503, 'database at 10.0.0.5 is down'))).not.toContain('10.0.0.5')
  })
})
