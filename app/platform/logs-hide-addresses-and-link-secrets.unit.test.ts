import { describe, expect, it } from 'vitest'
import { pathForLog, redactEmailAddresses } from './log-redaction'

describe('what is logged', () => {
  it('hides e-mail addresses in mail servers’ errors', () => {
    expect(redactEmailAddresses('Recipient command failed: 550 5.1.1 <Ann.Lee+news@Example.org>: no such user')).toBe(
      'Recipient command failed: 550 5.1.1 <[address]>: no such user',
    )
    expect(redactEmailAddresses('Can not send to bob@example.org, try later')).toBe('Can not send to [address], try later')
    expect(redactEmailAddresses('connect ECONNREFUSED 127.0.0.1:25')).toBe('connect ECONNREFUSED 127.0.0.1:25')
  })

  it('replaces the secret of a link in a path and drops the query', () => {
    expect(pathForLog('https://charity.example/subscribe/confirm/abc123?x=1')).toBe('/subscribe/confirm/[secret]')
    expect(pathForLog('https://charity.example/subscribe/unsubscribe/abc123')).toBe('/subscribe/unsubscribe/[secret]')
    expect(pathForLog('https://charity.example/signups/abc123/cancel')).toBe('/signups/[secret]/cancel')
    expect(pathForLog('https://charity.example/reset-password/abc')).toBe('/reset-password/[secret]')
    expect(pathForLog('https://charity.example/news/a-story?page=2')).toBe('/news/a-story')
    expect(pathForLog('https://charity.example/subscribe')).toBe('/subscribe')
  })
})
