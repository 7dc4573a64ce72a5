import { describe, expect, it } from 'vitest'
import { formatWhatsAppNumber, normaliseWhatsAppNumber } from './phone-numbers'

describe('normaliseWhatsAppNumber', () => {
  it('puts the country code in front of a 7-digit local number', () => {
    expect(normaliseWhatsAppNumber('555 0100', '+1 268')).toBe('12685550100')
    expect(normaliseWhatsAppNumber('555-0100', '1268')).toBe('12685550100')
    expect(normaliseWhatsAppNumber('5550100', '(1) 268')).toBe('12685550100')
  })

  it('puts the 1 in front of a 10-digit number on a site in the North American plan, as it is dialled there', () => {
    for (const input of ['(268) 555-7788', '268-555-7788', '268 555 7788', '268.555.7788', '2685557788']) {
      expect(normaliseWhatsAppNumber(input, '1268'), input).toBe('12685557788')
    }
    // Another area code of the plan (Dominica, New York): the same rule.
    expect(normaliseWhatsAppNumber('(767) 555-0100', '1268')).toBe('17675550100')
    expect(normaliseWhatsAppNumber('212 555 0100', '+1 268')).toBe('12125550100')
    expect(normaliseWhatsAppNumber('1 (268) 555-7788', '1268')).toBe('12685557788')
  })

  it('keeps an international number, whatever punctuation it was typed with', () => {
    expect(normaliseWhatsAppNumber('+1 (268) 555-0100', '1268')).toBe('12685550100')
    expect(normaliseWhatsAppNumber('+1.268.555.0100', '1268')).toBe('12685550100')
    expect(normaliseWhatsAppNumber('  1 268 555 0100  ', '1268')).toBe('12685550100')
    expect(normaliseWhatsAppNumber('+44 20 7946 0958', '1268')).toBe('442079460958')
  })

  it('reads a 00 prefix as the international prefix', () => {
    expect(normaliseWhatsAppNumber('00 1 268 555 0100', '1268')).toBe('12685550100')
    expect(normaliseWhatsAppNumber('0044 20 7946 0958', '1268')).toBe('442079460958')
  })

  it('does not add the country code to a number typed as international', () => {
    expect(normaliseWhatsAppNumber('+555 0100', '1268')).toBe('invalid')
    expect(normaliseWhatsAppNumber('00 555 0100', '1268')).toBe('invalid')
    expect(normaliseWhatsAppNumber('+268 7612 3456', '1268')).toBe('26876123456')
  })

  it('refuses what no one dials in the North American plan: a number from abroad without its +', () => {
    for (const input of ['44 20 7946 0958', '26855577', '268 555 77881', '0268 555 7788']) {
      expect(normaliseWhatsAppNumber(input, '1268'), input).toBe('invalid')
    }
  })

  it('refuses +1 numbers that are not 10 digits, or whose area code or exchange starts with 0 or 1', () => {
    for (const input of ['+1 268 555 010', '+1 268 555 01000', '(168) 555-7788', '268 155 7788', '+1 068 555 0100', '055 0100']) {
      expect(normaliseWhatsAppNumber(input, '1268'), input).toBe('invalid')
    }
  })

  it('reads numbers without a + as international on a site outside the North American plan', () => {
    expect(normaliseWhatsAppNumber('946 0958', '+44 20')).toBe('44209460958')
    expect(normaliseWhatsAppNumber('44 20 7946 0958', '44')).toBe('442079460958')
    expect(normaliseWhatsAppNumber('2685557788', '44')).toBe('2685557788')
  })

  it('treats an empty field as no number', () => {
    expect(normaliseWhatsAppNumber('', '1268')).toBeNull()
    expect(normaliseWhatsAppNumber('  - ( ) ', '1268')).toBeNull()
  })

  it('refuses numbers too short or too long to be international (8 to 15 digits)', () => {
    expect(normaliseWhatsAppNumber('555 010', '1268')).toBe('invalid')
    expect(normaliseWhatsAppNumber('+44 123 45', '1268')).toBe('invalid')
    expect(normaliseWhatsAppNumber('+44 123 456', '1268')).toBe('44123456')
    expect(normaliseWhatsAppNumber('+423 456 789 012 345', '1268')).toBe('423456789012345')
    expect(normaliseWhatsAppNumber('+423 456 789 012 3456', '1268')).toBe('invalid')
  })

  it('refuses a local number when the country code is missing', () => {
    expect(normaliseWhatsAppNumber('555 0100', '')).toBe('invalid')
    expect(normaliseWhatsAppNumber('555 0100', '1')).toBe('invalid')
  })

  it('refuses letters and other characters', () => {
    for (const input of [
      'call me',
      '268-555-CAKE',
      '+1 268 555 0100 ext 2',
      '1268555010O',
      '+',
      '00',
      '1+268 555 0100',
      '١٢٦٨٥٥٥٠١٠٠',
    ]) {
      expect(normaliseWhatsAppNumber(input, '1268'), input).toBe('invalid')
    }
  })
})

describe('formatWhatsAppNumber', () => {
  it('groups a number of the North American plan as it is written there', () => {
    expect(formatWhatsAppNumber('12685557788')).toBe('+1 268 555 7788')
  })

  it('writes any other number as + and its digits', () => {
    expect(formatWhatsAppNumber('442079460958')).toBe('+442079460958')
    expect(formatWhatsAppNumber('26876123456')).toBe('+26876123456')
  })
})
