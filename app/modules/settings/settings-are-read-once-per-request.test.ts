import { RouterContextProvider } from 'react-router'
import { describe, expect, it } from 'vitest'
import { DEMO_SITE_SETTINGS } from './settings.demo'
import { shareSiteSettingsPerRequest, siteSettingsFor } from './settings.context.server'
import { saveSiteSettings } from './settings.service.server'

function aRequest(method = 'GET') {
  return { request: new Request('http://site.test/', { method }), context: new RouterContextProvider() }
}

async function settingsOf(args: ReturnType<typeof aRequest>) {
  await shareSiteSettingsPerRequest(args as never, async () => new Response())
  return siteSettingsFor(args.context)
}

describe('site settings', () => {
  it('are read once and shared by every loader of the request', async () => {
    const { context } = aRequest()
    await shareSiteSettingsPerRequest({ context } as never, async () => {
      const [root, page] = await Promise.all([siteSettingsFor(context), siteSettingsFor(context)])
      expect(page).toBe(root)
      return new Response()
    })
  })

  it('are shared by every request until they change, and nobody may change the shared copy', async () => {
    await saveSiteSettings({ ...DEMO_SITE_SETTINGS, organisationName: 'Hearts of Hope' }, { actor: { id: 'test' } })
    const first = await settingsOf(aRequest())
    expect(await settingsOf(aRequest())).toBe(first)
    expect(() => {
      ;(first as { organisationName: string }).organisationName = 'Changed by a loader'
    }).toThrow(TypeError)
    expect(() => (first.bankAccounts as unknown[]).push({})).toThrow(TypeError)

    await saveSiteSettings({ ...DEMO_SITE_SETTINGS, organisationName: 'Harbour Light' }, { actor: { id: 'test' } })
    const changed = await settingsOf(aRequest())
    expect(changed).not.toBe(first)
    expect(changed.organisationName).toBe('Harbour Light')
  })
})
