import type { IncomingMessage } from 'node:http'
import net from 'node:net'
import { env } from './env.server'

/**
 * The client's address. X-Forwarded-For is believed only behind a proxy we were told to trust, and
 * only its last entry, the one that proxy added. Undefined when the socket has none (it closed
 * before the request was read).
 */
export function clientAddress(incoming: IncomingMessage): string | undefined {
  if (env.TRUST_PROXY) {
    const forwarded = String(incoming.headers['x-forwarded-for'] ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)
    if (forwarded.length) return forwarded[forwarded.length - 1]
  }
  return incoming.socket.remoteAddress
}

/**
 * The key that counts a client's attempts. One IPv6 subscriber gets a whole /64 and may use any
 * address in it, so IPv6 clients count per /64 prefix; IPv4 addresses count one by one.
 */
export function clientRateLimitKey(ip: string): string {
  const address = ip.replace(/%.*$/, '') // a zone index (fe80::1%eth0) names the interface, not the client
  const mappedIpv4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1]
  if (mappedIpv4) return mappedIpv4
  if (!net.isIPv6(address)) return ip
  return `${ipv6Groups(address).slice(0, 4).join(':')}::/64`
}

/** The eight groups of an IPv6 address, without leading zeros: `2001:db8::1` gives 2001, db8, 0, 0, 0, 0, 0, 1. */
function ipv6Groups(address: string): string[] {
  // A trailing dotted quad (64:ff9b::192.0.2.1) stands for the last two groups.
  const withoutQuad = address.replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (_m, a, b, c, d) =>
    [(Number(a) << 8) | Number(b), (Number(c) << 8) | Number(d)].map((n) => n.toString(16)).join(':'),
  )
  const [head, tail] = withoutQuad.split('::')
  const headGroups = head ? head.split(':') : []
  const tailGroups = tail ? tail.split(':') : []
  const zeros = tail === undefined ? [] : Array(8 - headGroups.length - tailGroups.length).fill('0')
  return [...headGroups, ...zeros, ...tailGroups].map((group) => parseInt(group, 16).toString(16))
}
