import { expect, PUBLIC_PAGES, smallTapTargets, test } from './fixtures'

// Visitors are on phones: every control they can press is at least 44 px, on every page.
const AUTH_PAGES = ['/login', '/forgot-password']

test('every control a visitor can press is at least 44 px', async ({ page }) => {
  test.setTimeout(120_000)
  const small: string[] = []
  for (const path of [...PUBLIC_PAGES, ...AUTH_PAGES]) {
    await page.goto(path)
    small.push(...(await smallTapTargets(page)).map((control) => `${path}: ${control}`))
  }
  expect(small).toEqual([])
})
