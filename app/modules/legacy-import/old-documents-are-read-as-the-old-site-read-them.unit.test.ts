import { describe, expect, it } from 'vitest'
import {
  contentTypeOf,
  createdAtOf,
  fileRefOfUrl,
  isFeaturedTitle,
  MalformedDocumentError,
  readContentDocument,
  readEventDocument,
} from './legacy-documents'
import { productImageUrls, readProductDocument } from './legacy-products'

const view = (bucket: string, id: string) => `https://cloud.appwrite.io/v1/storage/buckets/${bucket}/files/${id}/view?project=p`

describe("the old 'Fix Content Types' rule", () => {
  it('keeps a type that is there', () => {
    expect(contentTypeOf({ type: 'video', category: 'News' }, true)).toBe('video')
    expect(contentTypeOf({ type: 'article', category: 'Health' }, true)).toBe('article')
  })

  it('makes an untyped record in a gallery category a photo, and anything else an article', () => {
    for (const category of ['Events', 'Education', 'Health', 'Community', 'Projects']) {
      expect(contentTypeOf({ category }, true)).toBe('photo')
    }
    expect(contentTypeOf({ category: 'News' }, true)).toBe('article')
    expect(contentTypeOf({ category: 'health' }, true)).toBe('article')
    expect(contentTypeOf({}, true)).toBe('article')
  })

  it('keeps an untyped record without any file as an article (there is no picture to show)', () => {
    expect(contentTypeOf({ category: 'Events' }, false)).toBe('article')
  })

  it('refuses a type it does not know', () => {
    expect(() => contentTypeOf({ type: 'audio' }, true)).toThrow(new MalformedDocumentError("unknown type 'audio'"))
  })
})

describe('reading the content collection', () => {
  it('marks media whose title ends with three dots, or the one character of them, as featured', () => {
    expect(isFeaturedTitle('Sports Day...')).toBe(true)
    expect(isFeaturedTitle('Sports Day…')).toBe(true)
    expect(isFeaturedTitle('Sports Day..')).toBe(false)
    expect(isFeaturedTitle('Sports … Day')).toBe(false)
    const photo = readContentDocument(
      { $id: 'a', title: 'Sports Day...', content: 'Races.', type: 'photo', imageUrl: view('media', 'f1') },
      [],
    )
    expect(photo).toMatchObject({
      kind: 'media',
      featured: true,
      category: 'Events',
      description: 'Races.',
      file: { bucket: 'media', fileId: 'f1' },
    })
  })

  it('takes a bare file id when there is no URL, and refuses a URL that is no file view', () => {
    expect(readContentDocument({ title: 'T', type: 'photo', imageId: 'f2' }, [])).toMatchObject({
      file: { bucket: null, fileId: 'f2' },
    })
    expect(() => readContentDocument({ title: 'T', type: 'photo', imageUrl: 'https://example.org/a.jpg' }, [])).toThrow(
      /imageUrl is not a file view URL/,
    )
    expect(() => readContentDocument({ title: 'T', type: 'photo' }, [])).toThrow('a photo without a file')
  })

  it('needs a title, and an article its content', () => {
    expect(() => readContentDocument({ type: 'article', content: 'x' }, [])).toThrow('no title')
    expect(() => readContentDocument({ type: 'article', title: 'x' }, [])).toThrow('no content')
    expect(() => readContentDocument({ type: 'article', title: 'x'.repeat(201), content: 'x' }, [])).toThrow(
      'title is longer than 200 characters',
    )
  })

  it('keeps $createdAt, then createdAt', () => {
    expect(createdAtOf({ $createdAt: '2024-01-02T03:04:05.000+00:00', createdAt: '2020-01-01T00:00:00Z' })).toBe(
      '2024-01-02T03:04:05.000Z',
    )
    expect(createdAtOf({ createdAt: '2020-01-01T00:00:00Z' })).toBe('2020-01-01T00:00:00.000Z')
    expect(createdAtOf({}, new Date('2026-01-01T00:00:00Z'))).toBe('2026-01-01T00:00:00.000Z')
  })
})

describe('reading events', () => {
  it("turns the stored instants into the site's local day and time, and an unknown type into 'event'", () => {
    const warnings: string[] = []
    const event = readEventDocument(
      { title: 'Gala', startDate: '2025-07-04T23:30:00.000+00:00', type: 'banquet' },
      'America/Antigua',
      warnings,
    )
    expect(event).toMatchObject({ startDate: '2025-07-04', startTime: '19:30', type: 'event', location: '', description: '' })
    expect(warnings).toEqual(["type 'banquet' is unknown; shown as Event"])
  })

  it('reads a bare date as an all-day event (no time), lasting to the day of its end', () => {
    const day = readEventDocument({ title: 'Day', startDate: '2025-07-04' }, 'America/Antigua', [])
    expect(day).toMatchObject({ startDate: '2025-07-04' })
    expect(day.startTime).toBeUndefined()
    expect(day.endDate).toBeUndefined()
    const camp = readEventDocument({ title: 'Camp', startDate: '2025-07-04', endDate: '2025-07-06' }, 'America/Antigua', [])
    expect(camp).toMatchObject({ startDate: '2025-07-04', endDate: '2025-07-06' })
    expect([camp.startTime, camp.endTime]).toEqual([undefined, undefined])
    const warnings: string[] = []
    const backwards = readEventDocument(
      { title: 'Camp', startDate: '2025-07-04', endDate: '2025-07-01' },
      'America/Antigua',
      warnings,
    )
    expect(backwards.endDate).toBeUndefined()
    expect(warnings).toEqual(['the end is before the start; left out'])
  })
})

describe('reading products', () => {
  it('reads imageUrls as a JSON-encoded list, falling back to imageUrl', () => {
    const a = view('marketplace-images', 'a')
    const b = view('marketplace-images', 'b')
    expect(productImageUrls({ imageUrls: JSON.stringify([a, b]), imageUrl: a }, [])).toEqual([a, b])
    expect(productImageUrls({ imageUrls: [b, a] }, [])).toEqual([b, a])
    expect(productImageUrls({ imageUrl: a }, [])).toEqual([a])
    const warnings: string[] = []
    expect(productImageUrls({ imageUrls: '[not json', imageUrl: b }, warnings)).toEqual([b])
    expect(warnings).toEqual(['imageUrls is not a JSON list; used imageUrl instead'])
    expect(productImageUrls({ imageUrls: '{"a":1}' }, [])).toEqual([])
  })

  it('reads prices to the cent, normalises the WhatsApp number and drops links of other sites', () => {
    const warnings: string[] = []
    const product = readProductDocument(
      {
        name: 'Bread',
        description: 'Fresh.',
        price: 12.345,
        whatsappLink: 'https://wa.me/12685550100',
        facebookLink: 'https://facebook.com@evil.example/',
        instagramLink: 'https://www.instagram.com/bakes',
        category: 'food',
      },
      '+1 268',
      warnings,
    )
    expect(product).toMatchObject({
      price: 1235,
      whatsappNumber: '12685550100',
      facebookLink: '',
      instagramLink: 'https://www.instagram.com/bakes',
      category: 'general',
      images: [],
    })
    expect(warnings).toEqual([
      "category 'food' is unknown; filed under general",
      "facebookLink 'https://facebook.com@evil.example/' is not an address on Facebook; dropped",
    ])
    expect(readProductDocument({ name: 'B', description: 'D', price: -1, whatsappLink: '12' }, '1268', [])).toMatchObject({
      price: null,
      whatsappNumber: '',
    })
    // As it is dialled in Antigua: +1 268, not +268 (Eswatini).
    expect(readProductDocument({ name: 'B', description: 'D', whatsappLink: '268-555-7788' }, '1268', [])).toMatchObject({
      whatsappNumber: '12685557788',
    })
    const refused: string[] = []
    expect(readProductDocument({ name: 'B', description: 'D', whatsappLink: '26855577' }, '1268', refused).whatsappNumber).toBe(
      '',
    )
    expect(refused).toEqual(["whatsappLink '26855577' is not a phone number; dropped"])
  })

  it('refuses a file URL with an id that could be a path', () => {
    expect(() => fileRefOfUrl('https://x.example/v1/storage/buckets/b/files/..%2Fetc/view', 'imageUrl')).toThrow(
      MalformedDocumentError,
    )
  })
})
