import fs from 'node:fs'
import path from 'node:path'
import type { Page } from '@playwright/test'
import { listArticlesForAdmin } from '../../app/modules/news/news.queries.server'
import { deleteArticle } from '../../app/modules/news/news.service.server'
import { listEventsForAdmin } from '../../app/modules/events/events.admin-queries.server'
import { deleteEvent } from '../../app/modules/events/events.service.server'
import { expect, smallTapTargets, test } from './fixtures'
import { waitForHydration } from './hydration'

const GOOGLE_DOCS_PASTE = fs.readFileSync(path.resolve('tests/fixtures/pasted-html/google-docs.html'), 'utf8')

const titlesToRemove = new Set<string>()
test.afterEach(async () => {
  for (const article of await listArticlesForAdmin()) {
    if (titlesToRemove.has(article.title)) await deleteArticle(article.id)
  }
  for (const event of (await listEventsForAdmin({ timeZone: 'America/Antigua' })).events) {
    if (titlesToRemove.has(event.title)) await deleteEvent(event.id)
  }
  titlesToRemove.clear()
})

async function openNewArticle(page: Page) {
  await page.goto('/admin/news/new')
  await waitForHydration(page)
  await expect(page.getByRole('button', { name: 'Bold' })).toBeVisible()
}

/** Puts HTML (and its plain text) on the real clipboard and pastes it with Ctrl+V, as copying from another program does. */
async function pasteRich(page: Page, html: string) {
  await page.evaluate(async (markup) => {
    const text = new DOMParser().parseFromString(markup, 'text/html').body.textContent ?? ''
    await navigator.clipboard.write([
      new ClipboardItem({
        'text/html': new Blob([markup], { type: 'text/html' }),
        'text/plain': new Blob([text], { type: 'text/plain' }),
      }),
    ])
  }, html)
  await page.keyboard.press('Control+V')
}

async function select(page: Page, words: string) {
  await page.getByLabel('Content').evaluate((field: HTMLTextAreaElement, part) => {
    const start = field.value.indexOf(part)
    field.focus()
    field.setSelectionRange(start, start + part.length)
  }, words)
}

test('text pasted from Google Docs becomes Markdown, Bold marks a word, and the preview and article show both', async ({
  page,
  context,
  signIn,
  baseURL,
}) => {
  titlesToRemove.add('Clinic hours')
  await context.grantPermissions(['clipboard-read', 'clipboard-write'])
  await signIn()
  await openNewArticle(page)
  await page.getByLabel('Title').fill('Clinic hours')
  const content = page.getByLabel('Content')

  await content.click()
  await pasteRich(page, GOOGLE_DOCS_PASTE)
  await expect(content).toHaveValue(
    [
      '## Clinic opening hours',
      '',
      'The clinic is open **every Tuesday** from 9 to 12, and *by appointment* on Thursdays.',
      '',
      '- Blood pressure checks',
      '- Eye tests',
      '',
      'Book at the [front desk](https://hope.example.org/contact).',
    ].join('\n'),
  )
  // Undo takes the whole paste back; pasting again brings it back.
  await page.keyboard.press('Control+Z')
  await expect(content).toHaveValue('')
  await pasteRich(page, GOOGLE_DOCS_PASTE)
  await expect(content).toHaveValue(/^## Clinic opening hours\n[\s\S]*\(https:\/\/hope\.example\.org\/contact\)\.$/)

  // A link to this site, pasted from a web page: it will be stored as a path.
  await page.keyboard.press('Enter')
  await page.keyboard.press('Enter')
  await pasteRich(page, `<p>Thank you, volunteers. See <a href="${baseURL}/calendar">our calendar</a>.</p>`)
  await expect(content).toHaveValue(/\n\nThank you, volunteers\. See \[our calendar\]\(http:\/\/[^)]+\/calendar\)\.$/)

  // Plain text stays as it is, Markdown characters included.
  await page.evaluate(() => navigator.clipboard.writeText(' 2 * 3'))
  await page.keyboard.press('Control+V')
  await expect(content).toHaveValue(/\[our calendar\]\([^)]+\)\. 2 \* 3$/)

  await select(page, 'volunteers')
  await page.getByRole('button', { name: 'Bold' }).click()
  await expect(content).toHaveValue(/Thank you, \*\*volunteers\*\*\./)
  // Undo takes the toolbar's change back, as it would a typed one.
  await page.keyboard.press('Control+Z')
  await expect(content).toHaveValue(/Thank you, volunteers\./)
  await select(page, 'volunteers')
  await page.keyboard.press('Control+B')
  await expect(content).toHaveValue(/Thank you, \*\*volunteers\*\*\./)

  // A phone shows Write and Preview as tabs.
  await expect(page.getByRole('region', { name: 'Preview' })).toBeHidden()
  await page.getByRole('tab', { name: 'Preview' }).click()
  const preview = page.getByRole('region', { name: 'Preview' })
  await expect(preview.getByRole('heading', { level: 2, name: 'Clinic opening hours' })).toBeVisible()
  await expect(preview.locator('strong').filter({ hasText: 'volunteers' })).toBeVisible()
  await expect(preview.getByRole('listitem')).toHaveText(['Blood pressure checks', 'Eye tests'])
  await expect(content).toBeHidden()
  await page.getByRole('tab', { name: 'Write' }).click()
  await expect(content).toBeVisible()

  await page.getByRole('button', { name: 'Post Article' }).click()
  await expect(page).toHaveURL('/admin/news')
  await page.goto('/news/clinic-hours')
  const article = page.locator('.news-article-text')
  await expect(article.getByRole('heading', { level: 2, name: 'Clinic opening hours' })).toBeVisible()
  await expect(article.locator('strong')).toHaveText(['every Tuesday', 'volunteers'])
  await expect(article.locator('em')).toHaveText('by appointment')
  await expect(article.getByRole('link', { name: 'our calendar' })).toHaveAttribute('href', '/calendar')
  await expect(article).toContainText('2 * 3')
})

test("an event's description has the same editor: a paste from Google Docs and Bold show on the event's page", async ({
  page,
  context,
  signIn,
  baseURL,
}) => {
  titlesToRemove.add('Clinic day')
  await context.grantPermissions(['clipboard-read', 'clipboard-write'])
  await signIn()
  await page.goto('/admin/events/new')
  await waitForHydration(page)
  await page.getByLabel('Title').fill('Clinic day')
  await page.getByLabel('Start date').fill('2027-03-09')
  await page.getByLabel('Location').fill('Ministry Centre')
  const description = page.getByLabel('Description')
  await description.click()
  await pasteRich(page, GOOGLE_DOCS_PASTE)
  await expect(description).toHaveValue(/^## Clinic opening hours\n[\s\S]*\*by appointment\*[\s\S]*- Eye tests/)
  await page.keyboard.press('Enter')
  await page.keyboard.press('Enter')
  await pasteRich(page, `<p>Bring your card. See <a href="${baseURL}/support">how to help</a>.</p>`)
  await description.evaluate((field: HTMLTextAreaElement) => {
    const start = field.value.indexOf('your card')
    field.focus()
    field.setSelectionRange(start, start + 'your card'.length)
  })
  await page.getByRole('button', { name: 'Bold' }).click()
  await expect(description).toHaveValue(/Bring \*\*your card\*\*\./)
  await page.getByRole('tab', { name: 'Preview' }).click()
  await expect(page.getByRole('region', { name: 'Preview' }).locator('strong')).toHaveText(['every Tuesday', 'your card'])
  await page.getByRole('tab', { name: 'Write' }).click()
  expect(await smallTapTargets(page)).toEqual([])

  await page.getByRole('button', { name: 'Add Event' }).click()
  await expect(page).toHaveURL('/admin/events')
  await page.goto('/calendar/clinic-day')
  const shown = page.locator('.event-description')
  await expect(shown.getByRole('heading', { level: 2, name: 'Clinic opening hours' })).toBeVisible()
  await expect(shown.locator('strong')).toHaveText(['every Tuesday', 'your card'])
  await expect(shown.getByRole('listitem')).toHaveText(['Blood pressure checks', 'Eye tests'])
  await expect(shown.getByRole('link', { name: 'how to help' })).toHaveAttribute('href', '/support')
})

test('the preview is as safe as the public page: markup is text and javascript: links are no links', async ({ page, signIn }) => {
  await signIn()
  await openNewArticle(page)
  await page.getByLabel('Content').fill('<img src=x onerror=document.title=1> [click](javascript:alert(1)) [us](/contact)')
  await page.getByRole('tab', { name: 'Preview' }).click()
  const preview = page.getByRole('region', { name: 'Preview' })
  await expect(preview).toContainText('<img src=x onerror=document.title=1> [click](javascript:alert(1)) us')
  await expect(preview.locator('img')).toHaveCount(0)
  expect(await page.title()).not.toBe('1')
  await expect(preview.getByRole('link')).toHaveCount(1)
  await expect(preview.getByRole('link', { name: 'us' })).toHaveAttribute('href', '/contact')
})

test('the toolbar wraps at 360 px with 44 px buttons, and stands beside the preview at 1280 px', async ({ page, signIn }) => {
  await signIn()
  await page.setViewportSize({ width: 360, height: 780 })
  await openNewArticle(page)
  const toolbar = page.getByRole('group', { name: 'Formatting' })
  expect(await toolbar.evaluate((bar) => bar.scrollWidth <= bar.clientWidth)).toBe(true)
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)
  expect(await smallTapTargets(page)).toEqual([])
  await page.screenshot({ path: 'tmp/markdown-editor-360.png', fullPage: true })
  await page
    .getByLabel('Content')
    .fill('## Side by side\n\nThe preview follows **as you type**.\n\n- rice\n- beans\n\n> Thank you!')
  await page.getByRole('tab', { name: 'Preview' }).click()
  await expect(page.getByRole('region', { name: 'Preview' }).locator('blockquote')).toHaveText('Thank you!')
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)
  await page.screenshot({ path: 'tmp/markdown-editor-preview-360.png', fullPage: true })

  await page.setViewportSize({ width: 1280, height: 900 })
  await expect(page.getByRole('tab', { name: 'Preview' })).toBeHidden()
  const preview = page.getByRole('region', { name: 'Preview' })
  await expect(preview.locator('strong')).toHaveText('as you type')
  const write = (await page.getByLabel('Content').boundingBox())!
  const shown = (await preview.boundingBox())!
  expect(shown.x).toBeGreaterThan(write.x + write.width)
  await page.screenshot({ path: 'tmp/markdown-editor-1280.png', fullPage: true })
})

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('the content is the plain textarea and the article is posted as written', async ({ page, signIn }) => {
    titlesToRemove.add('Written by hand')
    await signIn()
    await page.goto('/admin/news/new')
    await expect(page.getByRole('button', { name: 'Bold' })).toHaveCount(0)
    await expect(page.getByRole('tab')).toHaveCount(0)
    await page.getByLabel('Title').fill('Written by hand')
    await page.getByLabel('Content').fill('Typed **by hand**.')
    await page.getByRole('button', { name: 'Post Article' }).click()
    await expect(page).toHaveURL('/admin/news')
    await page.goto('/news/written-by-hand')
    await expect(page.locator('.news-article-text strong')).toHaveText('by hand')
  })
})
