import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { keepFormEntries } from './form-entries'
import { formShapeOf, type FormShape } from './form-shape'
import { ContactSchema } from '~/modules/inbox/contact.schema'
import { ArticleSchema } from '~/modules/news/news.schema'
import { pageEditors } from '~/modules/pages/pages.editor'
import { PageContentSchemas } from '~/modules/pages/pages.schema'
import { SiteSettingsSchema } from '~/modules/settings/settings.schema'
import { LoginSchema, ManageUserSchema } from '~/modules/users/users.schema'

function form(entries: Array<[string, string | File]>): FormData {
  const formData = new FormData()
  for (const [name, value] of entries) formData.append(name, value)
  return formData
}

function kept(shape: FormShape, entries: Array<[string, string | File]>) {
  const result = keepFormEntries(shape, form(entries))
  return result && { names: [...result.entries.keys()], unechoed: result.unechoed }
}

const contact = formShapeOf(ContactSchema)
const aContact: Array<[string, string]> = [
  ['name', 'Ann'],
  ['email', 'ann@example.org'],
  ['phone', ''],
  ['subject', 'general'],
  ['message', 'Hello'],
  ['website', ''],
]

describe('a form keeps only what its schema reads', () => {
  it('keeps every field the contact form sends', () => {
    expect(kept(contact, aContact)).toEqual({ names: aContact.map(([name]) => name), unechoed: [] })
    expect(contact.maxEntries).toBe(aContact.length)
  })

  it.each([
    ['an unknown name', [['x', '1']]],
    ['a huge index on an unknown name', [['x[10000000]', '1']]],
    ['rows of an unknown list', [['a1[1].b[1]', 'x']]],
    ['a field sent twice', [['name', 'Bob']]],
    ['a field as a row', [['name[0]', 'Bob']]],
    ['a file where text is expected', [['message', new File(['x'], 'x.txt')]]],
    ['conform state', [['__state__', '{}']]],
    ['an intent on a form without row buttons', [['__intent__', '{"type":"validate","payload":{}}']]],
  ] as Array<[string, Array<[string, string | File]>]>)('refuses the whole form for %s', (_case, extra) => {
    expect(keepFormEntries(contact, form([...aContact.slice(0, 5), ...extra]))).toBeNull()
  })

  it.each(['.name', 'name.', 'name..x', 'name]', '[0]', ''])('refuses the name %j, which no form writes', (name) => {
    expect(kept(contact, [[name, 'x']])).toBeNull()
  })

  it('refuses a form with more entries than the schema has fields, before looking at them', () => {
    const many = Array.from({ length: contact.maxEntries + 1 }, (): [string, string] => ['name', 'x'])
    expect(kept(contact, many)).toBeNull()
  })

  it('keeps rows of a list within its maximum, and refuses the rest', () => {
    const settings = formShapeOf(SiteSettingsSchema)
    expect(kept(settings, [['impactFigures[11].value', '5']])).not.toBeNull()
    expect(kept(settings, [['impactFigures[12].value', '5']])).toBeNull()
    expect(kept(settings, [['impactFigures[99999].value', '5']])).toBeNull()
    expect(kept(settings, [['impactFigures[01].value', '5']])).toBeNull()
    expect(kept(settings, [['impactFigures[0].colour', 'red']])).toBeNull()
    expect(kept(settings, [['impactFigures', 'x']])).toBeNull()
    expect(kept(settings, [['bankAccounts[0]', 'x']])).toBeNull()
  })

  it('accepts the add and remove row buttons only where the form has them, and no other intent', () => {
    const insert = JSON.stringify({ type: 'insert', payload: { name: 'bankAccounts' } })
    const remove = JSON.stringify({ type: 'remove', payload: { name: 'bankAccounts', index: 9 } })
    const withButtons = formShapeOf(SiteSettingsSchema, { listButtons: true })
    expect(kept(withButtons, [['__intent__', insert]])).not.toBeNull()
    expect(kept(withButtons, [['__intent__', remove]])).not.toBeNull()
    expect(kept(formShapeOf(SiteSettingsSchema), [['__intent__', insert]])).toBeNull()
    for (const intent of [
      { type: 'remove', payload: { name: 'bankAccounts', index: 10 } },
      { type: 'insert', payload: { name: 'bankAccounts', defaultValue: { label: 'x' } } },
      { type: 'insert', payload: { name: 'organisationName' } },
      { type: 'update', payload: { name: 'bankAccounts', value: 'x' } },
      { type: 'reset', payload: {} },
    ]) {
      expect(kept(withButtons, [['__intent__', JSON.stringify(intent)]]), JSON.stringify(intent)).toBeNull()
    }
    expect(kept(withButtons, [['__intent__', '{']])).toBeNull()
    expect(
      kept(withButtons, [
        ['__intent__', insert],
        ['__intent__', insert],
      ]),
    ).toBeNull()
  })

  it('takes a list of plain values as one name repeated up to the maximum', () => {
    const shape = formShapeOf(z.object({ tags: z.array(z.string().max(20)).max(3) }))
    expect(
      kept(shape, [
        ['tags', 'a'],
        ['tags', 'b'],
        ['tags', 'c'],
      ])?.names,
    ).toEqual(['tags', 'tags', 'tags'])
    expect(
      kept(shape, [
        ['tags', 'a'],
        ['tags', 'b'],
        ['tags', 'c'],
        ['tags', 'd'],
      ]),
    ).toBeNull()
  })

  it('takes File values only where the schema expects a file', () => {
    const article = formShapeOf(ArticleSchema)
    const photo = new File(['x'], 'photo.jpg', { type: 'image/jpeg' })
    expect(
      kept(article, [
        ['title', 'A'],
        ['image', photo],
      ])?.names,
    ).toEqual(['title', 'image'])
    expect(kept(article, [['image', 'photo.jpg']])).toBeNull()
    expect(kept(article, [['title', photo]])).toBeNull()
    expect(formShapeOf(z.object({ scan: z.file().max(1000) })).root).toEqual({
      kind: 'object',
      fields: new Map([['scan', { kind: 'file' }]]),
    })
  })

  it('reads every option of a union: the user forms told apart by their intent', () => {
    const manage = formShapeOf(ManageUserSchema)
    expect(
      kept(manage, [
        ['intent', 'change-role'],
        ['role', 'admin'],
      ]),
    ).not.toBeNull()
    expect(
      kept(manage, [
        ['intent', 'reset-password'],
        ['password', 'a long password'],
      ]),
    ).not.toBeNull()
    expect(
      kept(manage, [
        ['intent', 'rename'],
        ['name', 'Mia Joseph'],
      ]),
    ).not.toBeNull()
    // A field none of the forms has.
    expect(
      kept(manage, [
        ['intent', 'remove'],
        ['email', 'x@example.org'],
      ]),
    ).toBeNull()
  })

  it('names the values too long to send back: over the field maximum, or over 1,000 characters without one', () => {
    const long = 'x'.repeat(5001)
    expect(
      kept(contact, [
        ['name', 'Ann'],
        ['message', long],
      ]),
    ).toEqual({ names: ['name', 'message'], unechoed: ['message'] })
    expect(kept(contact, [['subject', 'assistance!']])?.unechoed).toEqual(['subject'])
    const login = formShapeOf(LoginSchema)
    expect(kept(login, [['redirectTo', '/'.repeat(1000)]])?.unechoed).toEqual([])
    expect(kept(login, [['redirectTo', '/'.repeat(1001)]])?.unechoed).toEqual(['redirectTo'])
  })

  it('accepts every field of every page texts editor', () => {
    for (const editor of pageEditors) {
      const fields = editor.groups.flatMap((group) => group.fields.map(({ name }): [string, string] => [name, 'x']))
      expect(kept(formShapeOf(PageContentSchemas[editor.key]), fields)?.names, editor.key).toHaveLength(fields.length)
    }
  })

  it('refuses to build a form whose list has no maximum', () => {
    expect(() => formShapeOf(z.object({ tags: z.array(z.string()) }))).toThrow('A list in a form needs a maximum length: tags')
  })
})
