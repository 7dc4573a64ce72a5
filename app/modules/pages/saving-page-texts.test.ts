import { parseWithZod } from '@conform-to/zod/v4'
import { describe, expect, it } from 'vitest'
import { ZodError } from 'zod'
import { db } from '~/platform/db.server'
import { demoPageContent } from './pages.demo'
import { getValueAtPath, pageEditors } from './pages.editor'
import { getPageContent } from './pages.queries.server'
import { AboutContentSchema, PAGE_KEYS, PageContentSchemas } from './pages.schema'
import { savePageContent, seedPageContent } from './pages.service.server'
import { getPageHeroImage } from './pages.queries.server'
import { asFile, HTML_RENAMED_AS_JPEG, plainPng } from '../../../tests/fixtures/images'
import { MediaRejectedError } from '~/platform/media/media-rejected'

async function storedRows() {
  return db.selectFrom('pageSections').select(['key', 'content']).orderBy('key').execute()
}

describe('page texts', () => {
  it('shows the demo texts for a page that was never saved', async () => {
    expect(await getPageContent('about')).toEqual(demoPageContent.about)
  })

  it('seeds every page once and never overwrites an edit', async () => {
    await seedPageContent()
    expect((await storedRows()).map((r) => r.key)).toEqual([...PAGE_KEYS].sort())

    const edited = structuredClone(demoPageContent.home)
    edited.hero.title = 'A new beginning'
    await savePageContent('home', edited)
    await seedPageContent()
    expect((await getPageContent('home')).hero.title).toBe('A new beginning')
  })

  it('saves a valid document, trimmed', async () => {
    const edited = structuredClone(demoPageContent.services)
    edited.services.items[0].title = '  Monthly Food Distribution  '
    await savePageContent('services', edited)
    expect((await getPageContent('services')).services.items[0].title).toBe('Monthly Food Distribution')
  })

  it('refuses a bad document and saves nothing', async () => {
    await seedPageContent()
    const before = await storedRows()

    const missingTitle = structuredClone(demoPageContent.about) as any
    delete missingTitle.values.items[1].title
    await expect(savePageContent('about', missingTitle)).rejects.toThrow(ZodError)

    const fiveServices = structuredClone(demoPageContent.services)
    fiveServices.services.items.pop()
    await expect(savePageContent('services', fiveServices)).rejects.toThrow(/Exactly 6 entries/)

    const tooLong = structuredClone(demoPageContent.support)
    tooLong.hero.title = 'x'.repeat(121)
    await expect(savePageContent('support', tooLong)).rejects.toThrow(/at most 120 characters/)

    await expect(savePageContent('impact', 'not a document')).rejects.toThrow(ZodError)
    expect(await storedRows()).toEqual(before)
  })

  it('keeps saved texts when a field was added after they were saved', async () => {
    const older = structuredClone(demoPageContent.support) as Partial<typeof demoPageContent.support>
    older.hero!.title = 'Give With Us'
    delete older.poetryBooks
    await db
      .insertInto('pageSections')
      .values({ key: 'support', content: JSON.stringify(older), updatedAt: new Date().toISOString() })
      .execute()
    const content = await getPageContent('support')
    expect(content.hero.title).toBe('Give With Us')
    expect(content.poetryBooks).toEqual(demoPageContent.support.poetryBooks)
  })

  it('falls back to the demo texts when a stored document is damaged', async () => {
    await db
      .insertInto('pageSections')
      .values({ key: 'impact', content: '{"hero":', updatedAt: new Date().toISOString() })
      .execute()
    expect(await getPageContent('impact')).toEqual(demoPageContent.impact)
  })
})

describe('the page texts form', () => {
  function formFor(key: (typeof PAGE_KEYS)[number], document: unknown) {
    const form = new FormData()
    const editor = pageEditors.find((e) => e.key === key)!
    for (const group of editor.groups) {
      for (const field of group.fields) form.append(field.name, getValueAtPath(document, field.name))
    }
    return form
  }

  it('covers every field of every page: the demo texts survive a round trip through the form', () => {
    for (const editor of pageEditors) {
      const submission = parseWithZod(formFor(editor.key, demoPageContent[editor.key]), {
        schema: PageContentSchemas[editor.key],
      })
      expect(submission.status === 'success' && submission.value, editor.key).toEqual(demoPageContent[editor.key])
    }
  })

  it('drops contact person rows left empty and reports errors at the right row', () => {
    const document = structuredClone(demoPageContent.about)
    const form = formFor('about', document)
    form.set('contactPersons.people[3].role', 'Treasurer')
    form.set('contactPersons.people[3].email', 'not-an-email')
    const failed = parseWithZod(form, { schema: AboutContentSchema })
    expect(failed.status).toBe('error')
    expect(failed.reply().error).toEqual({
      'contactPersons.people[3].name': ['Name is required'],
      'contactPersons.people[3].email': ['Enter an e-mail address like name@example.org'],
    })

    form.delete('contactPersons.people[3].email')
    form.set('contactPersons.people[3].name', 'Treasurer')
    const saved = parseWithZod(form, { schema: AboutContentSchema })
    expect(saved.status).toBe('success')
    if (saved.status === 'success') expect(saved.value.contactPersons.people).toHaveLength(4)
  })

  it('puts a photograph behind the hero, replaces it and removes it, leaving no image behind', async () => {
    await seedPageContent()
    const texts = structuredClone(demoPageContent.home)
    await savePageContent('home', texts, {
      image: asFile(await plainPng(1600, 900), 'beach.png', 'image/png'),
      imageAlt: 'The beach at sunset',
      removeImage: false,
    })
    const first = await getPageHeroImage('home')
    expect(first).toMatchObject({ alt: 'The beach at sunset', width: 1600 })
    expect(first!.webpSrcSet).toContain('640w')

    // Saving the texts alone keeps the photograph.
    texts.hero.title = 'Hope for every family'
    await savePageContent('home', texts, { imageAlt: 'The beach at sunset', removeImage: false })
    expect((await getPageHeroImage('home'))?.src).toBe(first!.src)

    await savePageContent('home', texts, {
      image: asFile(await plainPng(800, 600, '#224488'), 'sea.png', 'image/png'),
      imageAlt: 'The sea',
      removeImage: false,
    })
    expect((await getPageHeroImage('home'))?.alt).toBe('The sea')
    expect(await db.selectFrom('images').select('id').execute()).toHaveLength(1)

    await savePageContent('home', texts, { imageAlt: '', removeImage: true })
    expect(await getPageHeroImage('home')).toBeNull()
    expect(await db.selectFrom('images').select('id').execute()).toEqual([])
    expect((await getPageContent('home')).hero.title).toBe('Hope for every family')
  })

  it('refuses a file that is no image and keeps the page as it was', async () => {
    await seedPageContent()
    const texts = structuredClone(demoPageContent.about)
    texts.hero.title = 'Changed'
    await expect(
      savePageContent('about', texts, { image: asFile(HTML_RENAMED_AS_JPEG, 'x.jpg'), imageAlt: '', removeImage: false }),
    ).rejects.toBeInstanceOf(MediaRejectedError)
    expect((await getPageContent('about')).hero.title).toBe(demoPageContent.about.hero.title)
  })
})
