import { HTTPException } from 'hono/http-exception'
import { RouterContextProvider } from 'react-router'
import { describe, expect, it } from 'vitest'
import { requestInfoContext } from '../app/platform/request-context'
import { createApp } from './app'

/** The app in front of a build that only records whether a request got that far. */
function appRecordingArrivals() {
  const arrivals: string[] = []
  const app = createApp(
    async () => {
      arrivals.push('reached the app')
      // Answered as is, without an error log: there is no build in this test.
      throw new HTTPException(503)
    },
    { mode: 'production' },
  )
  return { app, arrivals }
}

/** What @hono/node-server hands the app: the Node request, whose socket knows the client address. */
function nodeBindings(remoteAddress: string | undefined) {
  return { incoming: { socket: { remoteAddress }, headers: {} } }
}

describe('the client address', () => {
  it('is required: a request whose socket has none is refused before it reaches the app', async () => {
    const { app, arrivals } = appRecordingArrivals()
    const response = await app.request('/login', {}, nodeBindings(undefined))
    expect(response.status).toBe(400)
    expect(await response.text()).toBe('The client address is unknown.')
    expect(arrivals).toEqual([])
  })

  it('lets a request with an address through to the app', async () => {
    const { app, arrivals } = appRecordingArrivals()
    expect((await app.request('/login', {}, nodeBindings('203.0.113.7'))).status).toBe(503)
    expect(arrivals).toEqual(['reached the app'])
  })

  it('has no made-up default: reading it where the server set none fails loudly', () => {
    expect(() => new RouterContextProvider().get(requestInfoContext)).toThrow('No value found for context')
  })
})
