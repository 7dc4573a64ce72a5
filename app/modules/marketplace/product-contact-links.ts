/** A product's optional contact links: a WhatsApp number, a Facebook and an Instagram page. */

// E.164 allows at most 15 digits; 8 is the shortest number a country code plus subscriber makes.
const MIN_INTERNATIONAL_DIGITS = 8
const MAX_INTERNATIONAL_DIGITS = 15
// A number typed without its country code, as people in Antigua (and the rest of NANP) dial locally.
const LOCAL_NUMBER_DIGITS = 7

/**
 * The number as the digits wa.me expects (country code first, no '+'): null when nothing was
 * typed, 'invalid' when it is not a phone number. A 7-digit local number gets `countryCode`
 * ('+1 268' or '1268') in front; one typed with '+' or '00' is taken as international already.
 */
export function normaliseWhatsAppNumber(input: string, countryCode: string): string | null | 'invalid' {
  const compact = input.replace(/[\s.()-]/g, '')
  if (compact === '') return null
  const international = /^(\+|00)/.exec(compact)
  const digits = international ? compact.slice(international[0].length) : compact
  if (!/^\d+$/.test(digits)) return 'invalid'
  const full =
    !international && digits.length === LOCAL_NUMBER_DIGITS ? countryCode.replace(/\D/g, '') + digits : digits
  return full.length >= MIN_INTERNATIONAL_DIGITS && full.length <= MAX_INTERNATIONAL_DIGITS ? full : 'invalid'
}

/** The link that opens a WhatsApp chat with the seller, the message naming the product and its page. */
export function whatsAppChatUrl(digits: string, productName: string, productUrl: string): string {
  const message = `Hello! I am interested in "${productName}" from the youth marketplace: ${productUrl}`
  return `https://wa.me/${digits}?text=${encodeURIComponent(message)}`
}

const FACEBOOK_HOSTS = ['facebook.com', 'fb.com', 'fb.me']
const INSTAGRAM_HOSTS = ['instagram.com', 'instagr.am']

/** An http(s) address on facebook.com, fb.com or fb.me, or one of their subdomains (www., m.). */
export function isFacebookLink(url: string): boolean {
  return isLinkOnHosts(url, FACEBOOK_HOSTS)
}

/** An http(s) address on instagram.com or instagr.am, or one of their subdomains (www.). */
export function isInstagramLink(url: string): boolean {
  return isLinkOnHosts(url, INSTAGRAM_HOSTS)
}

function isLinkOnHosts(url: string, hosts: readonly string[]): boolean {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return false
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return false
  // 'https://facebook.com@evil.com' reads as Facebook but goes to evil.com.
  if (parsed.username !== '' || parsed.password !== '') return false
  const host = parsed.hostname // lower-cased by URL
  return hosts.some((allowed) => host === allowed || host.endsWith(`.${allowed}`))
}
