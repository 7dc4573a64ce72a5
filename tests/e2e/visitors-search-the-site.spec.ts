import type { Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { waitForHydration } from './hydration'

const WIDE = { width: 1280, height: 800 }

function results(page: Page) {
  return page.getByRole('list').filter({ has: page.locator('.search-result') })
}

/** On a phone the header shows the search button alone: it opens /search, whose box takes the words. */
async function searchFromThePhoneHeader(page: Page) {
  await page.goto('/about')
  const header = page.getByRole('banner')
  await expect(header.getByRole('searchbox')).toBeHidden()
  await header.getByRole('button', { name: 'Search the site' }).click()
  await expect(page).toHaveURL(/\/search\?q=$/)
  await expect(page.getByRole('heading', { level: 1, name: 'Search' })).toBeVisible()
  await page.getByRole('main').getByRole('searchbox', { name: 'Search the site' }).fill('distributions')
  await page.getByRole('main').getByRole('button', { name: 'Search' }).click()
  await expect(page).toHaveURL(/\/search\?q=distributions$/)
  await expect(page.getByText(/results? for “distributions”/)).toBeVisible()
  const article = results(page).getByRole('link', { name: 'Monthly Food and Clothing Distribution' }).first()
  await expect(article.locator('mark')).toHaveText('Distribution')
  await article.click()
  await expect(page).toHaveURL(/\/(news|calendar)\/monthly-food-and-clothing-distribution/)
}

/** On a wide screen the header has a box: the words go straight from there to the results. */
async function searchFromTheWideHeader(page: Page) {
  await page.setViewportSize(WIDE)
  await page.goto('/news')
  const header = page.getByRole('banner')
  await header.getByRole('searchbox', { name: 'Search the site' }).fill('soaps')
  await header.getByRole('searchbox', { name: 'Search the site' }).press('Enter')
  await expect(page).toHaveURL(/\/search\?q=soaps$/)
  await expect(results(page).getByRole('link', { name: 'Handmade Soap Set' })).toBeVisible()
  await expect(page.getByRole('main').getByRole('searchbox')).toHaveValue('soaps')
}

test.describe('with JavaScript', () => {
  test('a visitor on a phone searches from the header and opens what they found', async ({ page }) => {
    await page.goto('/news')
    await waitForHydration(page)
    await searchFromThePhoneHeader(page)
  })

  test('a visitor on a wide screen types in the header and reads the results', async ({ page }) => {
    await searchFromTheWideHeader(page)
  })

  test('operators are only words, and symbols alone find nothing, in plain words', async ({ page }) => {
    await page.goto('/search?q=%22NEAR(*%3A-')
    await expect(page.getByText('Nothing found for “"NEAR(*:-”')).toBeVisible()
    await waitForHydration(page)
    const box = page.getByRole('main').getByRole('searchbox')
    await box.fill('*:- "')
    await box.press('Enter')
    await expect(page.getByText('Search with letters or numbers')).toBeVisible()
  })
})

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('a visitor on a phone searches from the header and opens what they found', async ({ page }) => {
    await searchFromThePhoneHeader(page)
  })

  test('a visitor on a wide screen types in the header and reads the results', async ({ page }) => {
    await searchFromTheWideHeader(page)
  })
})
