import { describe, expect, it } from 'vitest'
import { describeDevice } from './devices.server'

describe('describeDevice', () => {
  it('names the browser, the system and the kind of device of common User-Agents', () => {
    const cases: [string, string][] = [
      [
        'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
        'Chrome on Android, phone',
      ],
      [
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
        'Safari on iOS, phone',
      ],
      ['Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:132.0) Gecko/20100101 Firefox/132.0', 'Firefox on Windows'],
      [
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
        'Microsoft Edge on Windows',
      ],
    ]
    for (const [userAgent, expected] of cases) expect(describeDevice(userAgent)).toBe(expected)
  })

  it('says so when it cannot tell', () => {
    expect(describeDevice(null)).toBe('Unknown device')
    expect(describeDevice('curl/8.5.0')).toBe('Unknown browser')
  })
})
