import { describe, expect, it } from 'vitest'
import { isFacebookLink, isInstagramLink, whatsAppChatUrl } from './product-contact-links'

describe('whatsAppChatUrl', () => {
  it('opens a chat with the number and a message naming the product and its page', () => {
    const url = new URL(whatsAppChatUrl('12685550100', 'Banana bread', 'https://example.org/marketplace/banana-bread'))
    expect(url.origin + url.pathname).toBe('https://wa.me/12685550100')
    expect(url.searchParams.get('text')).toBe(
      'Hello! I am interested in "Banana bread" from the youth marketplace: https://example.org/marketplace/banana-bread',
    )
  })

  it('keeps the message in the text parameter whatever the product is called', () => {
    const url = new URL(whatsAppChatUrl('12685550100', 'Soap & candles #2?', 'https://example.org/marketplace/soap'))
    expect([...url.searchParams.keys()]).toEqual(['text'])
    expect(url.hash).toBe('')
    expect(url.searchParams.get('text')).toContain('"Soap & candles #2?"')
  })
})

describe('isFacebookLink', () => {
  it('accepts http(s) pages on Facebook hosts and their subdomains', () => {
    for (const url of [
      'https://facebook.com/youthmarket',
      'https://www.facebook.com/youthmarket',
      'https://m.facebook.com/youthmarket',
      'http://fb.com/youthmarket',
      'https://fb.me/youthmarket',
      'https://web.facebook.com/groups/1',
      'HTTPS://WWW.FACEBOOK.COM/Youth',
    ]) {
      expect(isFacebookLink(url), url).toBe(true)
    }
  })

  it('refuses hosts that only look like Facebook', () => {
    for (const url of [
      'https://facebook.com.evil.com/page',
      'https://evilfacebook.com/page',
      'https://fb.co/page',
      'https://evil.com/facebook.com',
      'https://evil.com/?u=https://facebook.com',
      'https://instagram.com/youthmarket',
    ]) {
      expect(isFacebookLink(url), url).toBe(false)
    }
  })

  it('refuses addresses with credentials, which hide the real host', () => {
    expect(isFacebookLink('https://facebook.com@evil.com')).toBe(false)
    expect(isFacebookLink('https://facebook.com:pw@evil.com/')).toBe(false)
    expect(isFacebookLink('https://user@facebook.com/page')).toBe(false)
  })

  it('refuses other schemes and text that is not an address', () => {
    for (const url of [
      'javascript:alert(1)//facebook.com',
      'javascript://facebook.com/%0Aalert(1)',
      'data:text/html,facebook.com',
      'ftp://facebook.com/page',
      'facebook.com/youthmarket',
      '//facebook.com/youthmarket',
      '',
    ]) {
      expect(isFacebookLink(url), url).toBe(false)
    }
  })
})

describe('isInstagramLink', () => {
  it('accepts http(s) pages on Instagram hosts and their subdomains', () => {
    for (const url of [
      'https://instagram.com/youthmarket',
      'https://www.instagram.com/youthmarket/',
      'http://instagr.am/p/abc',
    ]) {
      expect(isInstagramLink(url), url).toBe(true)
    }
  })

  it('refuses look-alike hosts, credentials and other schemes', () => {
    for (const url of [
      'https://instagram.com.evil.com/youthmarket',
      'https://evilinstagram.com/youthmarket',
      'https://instagram.com@evil.com',
      'javascript:alert(1)//instagram.com',
      'https://facebook.com/youthmarket',
    ]) {
      expect(isInstagramLink(url), url).toBe(false)
    }
  })
})
