/** Prices are stored as whole cents; a product may have no price. */

/** The highest price the form accepts: one million dollars. */
export const MAX_PRICE_CENTS = 100_000_000

// The site does not name a currency: the old site shows a bare $ prefix.
const twoDecimals = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })

/** '$12.50', '$1,200.00'; null when the product has no price (nothing is shown then). */
export function formatPrice(cents: number | null): string | null {
  if (cents === null) return null
  return `$${twoDecimals.format(cents / 100)}`
}

/*
 * A plain decimal only: digits with an optional point and fraction ('12', '12.5', '.5').
 * Thousands separators are refused rather than guessed, since '12,50' means 12.50 in many
 * countries; the form's number input never sends them. Exponents, signs, NaN and Infinity are
 * refused too.
 */
const PLAIN_DECIMAL = /^(\d*)(?:\.(\d*))?$/

/**
 * The price typed into the form, in cents rounded to the nearest cent; null when the field is
 * empty; 'invalid' for anything else, a negative number, or more than MAX_PRICE_CENTS.
 */
export function parsePrice(input: string): number | null | 'invalid' {
  const trimmed = input.trim()
  if (trimmed === '') return null
  const match = PLAIN_DECIMAL.exec(trimmed)
  if (!match) return 'invalid'
  const [, whole, fraction = ''] = match
  if (whole === '' && fraction === '') return 'invalid' // a lone '.'
  // Worked out on the digits, not with floating point, where 1.005 * 100 is 100.49999...
  const cents = Number(whole || '0') * 100 + Number(fraction.slice(0, 2).padEnd(2, '0'))
  const roundedUp = (fraction[2] ?? '0') >= '5'
  const total = roundedUp ? cents + 1 : cents
  return total <= MAX_PRICE_CENTS ? total : 'invalid'
}
