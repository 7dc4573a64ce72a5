import { describe, expect, it } from 'vitest'
import { pageMeta, toDescription } from './seo'

const rootMatch = {
  id: 'root',
  loaderData: { siteOrigin: 'https://charity.example.org', settings: { organisationName: 'Hearts of Hope Ministry' } },
}

function tagsOf(meta: ReturnType<typeof pageMeta>) {
  return Object.fromEntries(
    meta.map((tag) => {
      if ('title' in tag) return ['title', tag.title]
      if ('property' in tag) return [tag.property, tag.content]
      if ('name' in tag) return [tag.name, tag.content]
      if ('rel' in tag) return [tag.rel, tag.href]
      return ['?', '']
    }),
  )
}

describe('page meta', () => {
  it("titles a page '<Page> | <Organisation>' and makes every URL absolute", () => {
    const tags = tagsOf(
      pageMeta({ location: { pathname: '/about' }, matches: [rootMatch] }, { title: 'About Us', description: 'Who we are.' }),
    )
    expect(tags).toMatchObject({
      title: 'About Us | Hearts of Hope Ministry',
      description: 'Who we are.',
      'og:title': 'About Us | Hearts of Hope Ministry',
      'og:site_name': 'Hearts of Hope Ministry',
      'og:url': 'https://charity.example.org/about',
      canonical: 'https://charity.example.org/about',
      'og:image': 'https://charity.example.org/social-preview.jpg',
      'og:image:width': '1200',
      'og:image:height': '630',
      'twitter:card': 'summary_large_image',
      'twitter:image': 'https://charity.example.org/social-preview.jpg',
    })
  })

  it('uses the organisation name alone on the home page, and a page image when given', () => {
    const tags = tagsOf(
      pageMeta(
        { location: { pathname: '/' }, matches: [rootMatch] },
        { description: 'Welcome.', type: 'article', image: { url: '/media/a.jpg', alt: 'Volunteers at work' } },
      ),
    )
    expect(tags.title).toBe('Hearts of Hope Ministry')
    expect(tags['og:type']).toBe('article')
    expect(tags['og:image']).toBe('https://charity.example.org/media/a.jpg')
    expect(tags['og:image:alt']).toBe('Volunteers at work')
    expect(tags['og:image:width']).toBeUndefined()
  })

  it('still gives a title and description when the root data is missing (an error page)', () => {
    const tags = tagsOf(pageMeta({ location: { pathname: '/x' }, matches: [] }, { title: 'Oops', description: 'Gone.' }))
    expect(tags).toMatchObject({ title: 'Oops', description: 'Gone.' })
    expect(tags.canonical).toBeUndefined()
  })

  it('shortens long descriptions at a word boundary', () => {
    const text = 'word '.repeat(100)
    const description = toDescription(text)
    expect(description.length).toBeLessThanOrEqual(200)
    expect(description).toMatch(/word…$/)
    expect(toDescription('  Two\n\nparagraphs.  ')).toBe('Two paragraphs.')
  })
})
