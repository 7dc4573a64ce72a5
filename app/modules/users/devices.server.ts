import Bowser from 'bowser'

/**
 * A session's device as its owner recognises it, from the User-Agent alone ("Chrome on Android,
 * phone"): no lookup of the address, no geolocation. Browsers hide some detail (iPads may call
 * themselves Macs), so this is a hint, not a proof.
 */
export function describeDevice(userAgent: string | null): string {
  if (!userAgent) return 'Unknown device'
  const { browser, os, platform } = Bowser.parse(userAgent)
  const kind = platform.type === 'mobile' ? 'phone' : platform.type === 'tablet' ? 'tablet' : null
  const what = [browser.name, os.name].filter(Boolean).join(' on ') || 'Unknown browser'
  return kind ? `${what}, ${kind}` : what
}
