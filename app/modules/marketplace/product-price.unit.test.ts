import { describe, expect, it } from 'vitest'
import { formatPrice, MAX_PRICE_CENTS, parsePrice } from './product-price'

describe('formatPrice', () => {
  it('shows a price with a $ prefix, two decimals and thousands separators', () => {
    expect(formatPrice(1250)).toBe('$12.50')
    expect(formatPrice(120_000)).toBe('$1,200.00')
    expect(formatPrice(5)).toBe('$0.05')
  })

  it('shows a free product as $0.00', () => {
    expect(formatPrice(0)).toBe('$0.00')
  })

  it('shows nothing, not even the $, when there is no price', () => {
    expect(formatPrice(null)).toBeNull()
  })
})

describe('parsePrice', () => {
  it('reads whole dollars and decimals as cents', () => {
    expect(parsePrice('12')).toBe(1200)
    expect(parsePrice('12.5')).toBe(1250)
    expect(parsePrice('12.50')).toBe(1250)
    expect(parsePrice('0')).toBe(0)
    expect(parsePrice('.5')).toBe(50)
    expect(parsePrice('7.')).toBe(700)
  })

  it('ignores spaces around the number', () => {
    expect(parsePrice(' 3 ')).toBe(300)
  })

  it('rounds to the nearest cent without floating-point surprises', () => {
    expect(parsePrice('1.005')).toBe(101)
    expect(parsePrice('1.004')).toBe(100)
    expect(parsePrice('0.999')).toBe(100)
    expect(parsePrice('19.994999')).toBe(1999)
  })

  it('treats an empty field as no price', () => {
    expect(parsePrice('')).toBeNull()
    expect(parsePrice('   ')).toBeNull()
  })

  it('accepts up to one million dollars and refuses more', () => {
    expect(parsePrice('1000000')).toBe(MAX_PRICE_CENTS)
    expect(parsePrice('1000000.00')).toBe(MAX_PRICE_CENTS)
    expect(parsePrice('1000000.01')).toBe('invalid')
    expect(parsePrice('9'.repeat(400))).toBe('invalid')
  })

  it('refuses negative numbers, signs, exponents and words', () => {
    for (const input of ['-1', '-0.5', '+5', '1e5', 'NaN', 'Infinity', 'abc', '12abc', '$12', '.', '1.2.3', '0x10']) {
      expect(parsePrice(input), input).toBe('invalid')
    }
  })

  it('refuses thousands separators and decimal commas rather than guess which is meant', () => {
    expect(parsePrice('1,200.00')).toBe('invalid')
    expect(parsePrice('12,50')).toBe('invalid')
    expect(parsePrice('1 200')).toBe('invalid')
  })

  it('refuses digits of other scripts', () => {
    expect(parsePrice('١٢')).toBe('invalid')
  })
})
