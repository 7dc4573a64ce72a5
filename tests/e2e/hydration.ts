import type { Page } from '@playwright/test'

/**
 * Waits until React Router has taken over the page. Before that a click is an ordinary page
 * load (which works too, but is not what a test of the in-page behaviour wants).
 */
export async function waitForHydration(page: Page): Promise<void> {
  await page.waitForFunction(() => '__reactRouterDataRouter' in window)
}
