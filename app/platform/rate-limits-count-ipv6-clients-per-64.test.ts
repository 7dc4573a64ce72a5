import { describe, expect, it } from 'vitest'
import { clientRateLimitKey } from './client-address.server'

describe('the rate-limit key of a client address', () => {
  it('counts every address of one IPv6 /64 as one client', () => {
    const keys = ['2001:db8:1:2::1', '2001:db8:1:2:ffff:ffff:ffff:ffff', '2001:0DB8:0001:0002:a:b:c:d', '2001:db8:1:2:0:0:0:0']
    expect(new Set(keys.map(clientRateLimitKey))).toEqual(new Set(['2001:db8:1:2::/64']))
  })

  it('keeps neighbouring /64 networks apart', () => {
    expect(clientRateLimitKey('2001:db8:1:3::1')).not.toBe(clientRateLimitKey('2001:db8:1:2::1'))
    expect(clientRateLimitKey('2001:db8::1')).toBe('2001:db8:0:0::/64')
    expect(clientRateLimitKey('::1')).toBe('0:0:0:0::/64')
    expect(clientRateLimitKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64')
    expect(clientRateLimitKey('64:ff9b:1:2::192.0.2.1')).toBe('64:ff9b:1:2::/64')
  })

  it('counts IPv4 addresses one by one, also when they arrive as IPv4-mapped IPv6', () => {
    expect(clientRateLimitKey('198.51.100.7')).toBe('198.51.100.7')
    expect(clientRateLimitKey('::ffff:198.51.100.7')).toBe('198.51.100.7')
    expect(clientRateLimitKey('198.51.100.8')).not.toBe(clientRateLimitKey('198.51.100.7'))
  })

  it('passes anything that is no address through unchanged', () => {
    expect(clientRateLimitKey('unknown')).toBe('unknown')
  })
})
