import { RouterContextProvider } from 'react-router'
import { describe, expect, it } from 'vitest'
import { shareSiteSettingsPerRequest, siteSettingsFor } from './settings.context.server'

describe('site settings within one request', () => {
  it('are read once and shared by every loader of the request', async () => {
    const context = new RouterContextProvider()
    await shareSiteSettingsPerRequest({ context } as never, async () => {
      const [root, page] = await Promise.all([siteSettingsFor(context), siteSettingsFor(context)])
      expect(page).toBe(root)
      return new Response()
    })
  })

  it('are read afresh by each request', async () => {
    const first = new RouterContextProvider()
    const second = new RouterContextProvider()
    for (const context of [first, second]) {
      await shareSiteSettingsPerRequest({ context } as never, async () => new Response())
    }
    expect(await siteSettingsFor(first)).not.toBe(await siteSettingsFor(second))
    expect(await siteSettingsFor(first)).toEqual(await siteSettingsFor(second))
  })
})
