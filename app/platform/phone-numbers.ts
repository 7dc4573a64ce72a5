/** WhatsApp numbers as people type them, and as the site keeps and shows them. */

// E.164 allows at most 15 digits; 8 is the shortest number a country code plus subscriber makes.
const MIN_INTERNATIONAL_DIGITS = 8
const MAX_INTERNATIONAL_DIGITS = 15
// A number typed without its country code, as people in Antigua (and the rest of NANP) dial locally.
const LOCAL_NUMBER_DIGITS = 7
// The North American Numbering Plan: country code 1 (Antigua and Barbuda, most of the Caribbean, the
// US, Canada), then a 3-digit area code and a 7-digit number, neither of them starting with 0 or 1.
const NANP_COUNTRY_CODE = '1'
const NANP_NATIONAL_DIGITS = 10
const NANP_NUMBER = /^1([2-9]\d{2})([2-9]\d{2})(\d{4})$/

/**
 * The number as the digits wa.me expects (country code first, no '+'): null when nothing was
 * typed, 'invalid' when it is not a phone number. One typed with '+' or '00' is international
 * already. Otherwise it is read as it is dialled at the site (`siteCode`, the site's calling code
 * with its area code, e.g. '+1 268'): a 7-digit local number gets the site's code in front; in a
 * NANP country, a 10-digit number gets the 1, and the 1 is all an 11-digit one may start with.
 */
export function normaliseWhatsAppNumber(input: string, siteCode: string): string | null | 'invalid' {
  const compact = input.replace(/[\s.()-]/g, '')
  if (compact === '') return null
  const international = /^(\+|00)/.exec(compact)
  const digits = international ? compact.slice(international[0].length) : compact
  if (!/^\d+$/.test(digits)) return 'invalid'
  const full = international ? digits : asDialledAtTheSite(digits, siteCode.replace(/\D/g, ''))
  return full !== null && isInternationalNumber(full) ? full : 'invalid'
}

function asDialledAtTheSite(digits: string, siteCode: string): string | null {
  if (digits.length === LOCAL_NUMBER_DIGITS) return siteCode + digits
  if (!siteCode.startsWith(NANP_COUNTRY_CODE)) return digits
  if (digits.length === NANP_NATIONAL_DIGITS) return NANP_COUNTRY_CODE + digits
  // Any other number dialled here starts with the 1; one from abroad needs its '+'.
  return digits.startsWith(NANP_COUNTRY_CODE) ? digits : null
}

function isInternationalNumber(digits: string): boolean {
  if (digits.startsWith(NANP_COUNTRY_CODE)) return NANP_NUMBER.test(digits)
  return digits.length >= MIN_INTERNATIONAL_DIGITS && digits.length <= MAX_INTERNATIONAL_DIGITS
}

/**
 * A stored number as people read it: '+1 268 555 0100' in the North American plan; elsewhere '+'
 * and the digits, as where the country code ends is not known here.
 */
export function formatWhatsAppNumber(digits: string): string {
  const nanp = NANP_NUMBER.exec(digits)
  return nanp ? `+1 ${nanp[1]} ${nanp[2]} ${nanp[3]}` : `+${digits}`
}
