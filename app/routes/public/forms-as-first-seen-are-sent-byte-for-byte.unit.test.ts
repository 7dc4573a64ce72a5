import type { SubmissionResult } from '@conform-to/react'
import { createElement as h, type ReactElement } from 'react'
import { renderToString } from 'react-dom/server'
import { createRoutesStub } from 'react-router'
import { expect, it, vi } from 'vitest'
import { KeepMarkupContext, type KeepMarkup } from '~/components/kept-markup'
import { keepMarkup } from '~/components/kept-markup.server'
import type { SignupState } from '~/modules/events/signups.queries.server'
import { SignupSection } from './calendar/signup-form'
import { MarketplaceLogin } from './marketplace/marketplace-login'

// The forms a visitor first sees are rendered once and sent again (KeptInside, decision 043): the
// markup must be what React renders in place, which is what the browser hydrates.

/** `element` at `path`, rendered as the server renders a page, with the given store of kept pieces or none. */
function page(path: string, element: ReactElement, keep: KeepMarkup | null): string {
  const Stub = createRoutesStub([{ path: '*', Component: () => element }])
  const tree = h(Stub, { initialEntries: [path] })
  return renderToString(keep ? h(KeepMarkupContext, { value: keep }, tree) : tree)
}

const OPEN: SignupState = {
  contact: 'either',
  asksPartySize: true,
  partySizeMax: 10,
  closed: false,
  opensLater: false,
  placesLeft: 40,
  full: false,
}
const STATES: SignupState[] = [
  OPEN,
  { ...OPEN, placesLeft: 1 },
  { ...OPEN, placesLeft: 0, full: true },
  { ...OPEN, placesLeft: null },
  { ...OPEN, contact: 'email', asksPartySize: false },
  { ...OPEN, contact: 'whatsapp' },
  { ...OPEN, closed: true },
  { ...OPEN, opensLater: true },
]

function signup(state: SignupState, lastResult?: SubmissionResult<string[]>) {
  const path = '/calendar/monthly-food-and-clothing-distribution'
  return h(SignupSection, { state, action: `${path}?date=2026-12-26`, date: '2026-12-26', dateLabel: 'Sat, Dec 26', lastResult })
}

it("sends an event's sign-up, in every state, byte for byte as rendered in place", () => {
  for (const state of STATES) {
    const inPlace = page('/calendar/monthly-food-and-clothing-distribution', signup(state), null)
    expect(page('/calendar/monthly-food-and-clothing-distribution', signup(state), keepMarkup)).toBe(inPlace)
    // The second time from what was kept.
    expect(page('/calendar/monthly-food-and-clothing-distribution', signup(state), keepMarkup)).toBe(inPlace)
  }
})

it("sends the marketplace's sign-in dialog byte for byte as rendered in place", () => {
  for (const path of ['/marketplace', '/marketplace/banana-bread-loaf']) {
    const inPlace = page(path, h(MarketplaceLogin), null)
    expect(inPlace).toContain('id="marketplace-login-form-email"')
    expect(page(path, h(MarketplaceLogin), keepMarkup)).toBe(inPlace)
    expect(page(path, h(MarketplaceLogin), keepMarkup)).toBe(inPlace)
  }
})

it('never hands a form sent back with what was typed to the store, and keeps the empty one', () => {
  const store = vi.fn(keepMarkup)
  const sentBack: SubmissionResult<string[]> = {
    status: 'error',
    initialValue: { name: 'Marisol Private-Name', email: '' },
    error: { email: ['Please enter your e-mail address'] },
  }
  const answer = page('/calendar/monthly-food-and-clothing-distribution', signup(OPEN, sentBack), store)
  expect(answer).toContain('Marisol Private-Name')
  expect(answer).toContain('Please enter your e-mail address')
  expect(store).not.toHaveBeenCalled()

  page('/calendar/monthly-food-and-clothing-distribution', signup(OPEN), store)
  expect(store).toHaveBeenCalledTimes(1)
})
