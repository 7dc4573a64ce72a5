import type { SubmissionResult } from '@conform-to/react'
import { createElement as h, type ReactElement } from 'react'
import { renderToString } from 'react-dom/server'
import { createRoutesStub } from 'react-router'
import { expect, it, vi } from 'vitest'
import { KeepMarkupContext, type KeepMarkup } from '~/components/kept-markup'
import { keepMarkup } from '~/components/kept-markup.server'
import type { SignupState } from '~/modules/events/signups.queries.server'
import type { MediaDetail } from '~/modules/gallery/gallery.queries.server'
import type { ProductDetail as Product } from '~/modules/marketplace/marketplace.queries.server'
import { formatPlainDate, monthGridWeeks, type PlainDate } from '~/platform/dates'
import type { Shared } from '~/platform/shared'
import { MonthView, type MonthViewProps } from './calendar/month-view'
import { SignupSection } from './calendar/signup-form'
import { MarketplaceLogin } from './marketplace/marketplace-login'
import { ProductDetail } from './marketplace/product-detail'
import { MediaItemDetail } from './photos/media-detail'

// The forms a visitor first sees, a product's and a photo's own part of their page and the calendar's month are rendered once and sent again
// (KeptInside, decision 043): the markup must be what React renders in place, which is what the
// browser hydrates.

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

const picture = (name: string) => ({
  width: 800,
  height: 800,
  alt: `${name}, on a plate`,
  src: `/media/images/${name}-800.jpg`,
  jpegSrcSet: `/media/images/${name}-400.jpg 400w, /media/images/${name}-800.jpg 800w`,
  webpSrcSet: `/media/images/${name}-400.webp 400w, /media/images/${name}-800.webp 800w`,
})
const BANANA_BREAD: Shared<Product> = {
  id: 'b7c1',
  slug: 'banana-bread-loaf',
  name: 'Banana Bread Loaf',
  description: 'Baked fresh **every Friday**.',
  descriptionText: 'Baked fresh every Friday.',
  descriptionHtml: '<p>Baked fresh <strong>every Friday</strong>.</p>',
  category: 'general',
  priceCents: 1500,
  seller: 'Keisha',
  images: [picture('loaf'), picture('slice')],
  facebookLink: 'https://www.facebook.com/example',
  instagramLink: '',
  whatsappNumber: '12685550121',
  createdAt: '2026-11-01T12:00:00.000Z',
  updatedAt: '2026-11-02T12:00:00.000Z',
  socialImage: null,
}

it("sends a product's pictures, words and buttons byte for byte as rendered in place, and keeps no preview", () => {
  const path = '/marketplace/banana-bread-loaf'
  const url = `https://hearts.example${path}`
  for (const product of [BANANA_BREAD, { ...BANANA_BREAD, images: [], priceCents: null, whatsappNumber: '' }]) {
    const detail = (preview: boolean) => h(ProductDetail, { product, url, preview })
    const inPlace = page(path, detail(false), null)
    expect(page(path, detail(false), keepMarkup)).toBe(inPlace)
    expect(page(path, detail(false), keepMarkup)).toBe(inPlace)
  }
  const withWhatsApp = page(path, h(ProductDetail, { product: BANANA_BREAD, url, preview: false }), keepMarkup)
  expect(withWhatsApp).toContain('Chat on WhatsApp')
  expect(withWhatsApp).toContain('loaf-400.jpg')

  const store = vi.fn(keepMarkup)
  page(path, h(ProductDetail, { product: { ...BANANA_BREAD, name: 'A draft loaf' }, url, preview: true }), store)
  expect(store).not.toHaveBeenCalled()
})

const MORNING: Shared<MediaDetail & { dateLabel: string }> = {
  id: 'm1',
  slug: 'monthly-distribution-morning',
  kind: 'photo',
  title: 'Monthly distribution morning',
  category: 'Community',
  publishedAt: '2026-11-07T13:00:00.000Z',
  dateLabel: 'November 7, 2026',
  thumbnail: picture('morning'),
  descriptionHtml: '<p>Volunteers at <em>seven</em>.</p>',
  descriptionText: 'Volunteers at seven.',
  updatedAt: '2026-11-08T12:00:00.000Z',
  video: null,
  socialImage: null,
  previous: 'youth-market-day',
  next: null,
}
const VIDEO: typeof MORNING = {
  ...MORNING,
  slug: 'youth-market-day',
  kind: 'video',
  video: { src: '/media/videos/market.mp4', contentType: 'video/mp4', width: 1280, height: 720, poster: picture('market') },
  previous: null,
  next: 'monthly-distribution-morning',
}

it("sends a photo's and a video's picture, words and neighbours byte for byte as rendered in place, and keeps no preview", () => {
  for (const [item, category] of [
    [MORNING, null],
    [MORNING, 'Community'],
    [VIDEO, null],
  ] as const) {
    const path = `/photos/${item.slug}`
    const detail = h(MediaItemDetail, { item, category, inDialog: false, preview: false })
    const inPlace = page(path, detail, null)
    expect(inPlace).toContain(item.video ? '<video' : 'morning-400.jpg')
    expect(page(path, detail, keepMarkup)).toBe(inPlace)
    expect(page(path, detail, keepMarkup)).toBe(inPlace)
  }
  // The neighbours are those of the category the grid showed.
  expect(
    page(
      '/photos/monthly-distribution-morning',
      h(MediaItemDetail, { item: MORNING, category: 'Community', inDialog: false, preview: false }),
      keepMarkup,
    ),
  ).toContain('href="/photos/youth-market-day?category=Community"')

  const store = vi.fn(keepMarkup)
  page(
    '/photos/monthly-distribution-morning',
    h(MediaItemDetail, { item: { ...MORNING, title: 'A draft' }, category: null, inDialog: false, preview: true }),
    store,
  )
  expect(store).not.toHaveBeenCalled()
})

function december(today: PlainDate | null): MonthViewProps['weeks'] {
  return monthGridWeeks('2026-12').map((week) =>
    week.map((date) => ({
      date,
      day: Number(date.slice(8, 10)),
      label: formatPlainDate(date),
      inMonth: date.startsWith('2026-12'),
      isToday: date === today,
      events:
        date === '2026-12-26'
          ? [
              {
                key: 'e1-2026-12-26',
                href: '/calendar/monthly-food-and-clothing-distribution?date=2026-12-26',
                title: 'Monthly Food & Clothing Distribution',
                location: 'Church hall',
                type: 'general' as const,
                time: '9:00 AM',
              },
            ]
          : [],
    })),
  )
}

it("sends the calendar's month byte for byte as rendered in place, for visitors and administrators", () => {
  const month = (weeks: MonthViewProps['weeks'], admin: boolean) =>
    h(MonthView, {
      month: '2026-12',
      monthLabel: 'December 2026',
      previous: { month: '2026-11', label: 'November 2026' },
      next: { month: '2027-01', label: 'January 2027' },
      isCurrentMonth: weeks.flat().some((day) => day.isToday),
      weeks,
      admin,
    })
  for (const weeks of [december('2026-12-03'), december(null)]) {
    for (const admin of [false, true]) {
      const inPlace = page('/calendar', month(weeks, admin), null)
      expect(inPlace).toContain('Monthly Food &amp; Clothing Distribution')
      expect(inPlace.includes('Add an event on')).toBe(admin)
      const store = vi.fn(keepMarkup)
      expect(page('/calendar', month(weeks, admin), store)).toBe(inPlace)
      expect(page('/calendar', month(weeks, admin), store)).toBe(inPlace)
      expect(store).toHaveBeenCalledTimes(2)
      expect(store.mock.calls[0][0]).toMatch(/^calendar-month\n/)
    }
  }
})
