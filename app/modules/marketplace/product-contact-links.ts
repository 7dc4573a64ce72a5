/** A product's optional contact links: a WhatsApp number, a Facebook and an Instagram page. */

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
