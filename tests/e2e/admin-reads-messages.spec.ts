import { closeAdminNav, openAdminNav } from './admin-nav'
import { expect, test } from './fixtures'

/** A message as the contact form stores it, with its forwarding already delivered. */
async function receiveMessage(name: string, message: string) {
  const { storeContactMessage } = await import('~/modules/inbox/inbox.service.server')
  const { db } = await import('~/platform/db.server')
  const id = await storeContactMessage(
    { name, email: 'marcia@example.com', phone: '+1 268 555 0142', subject: 'assistance', message },
    ['forward'],
  )
  const now = new Date().toISOString()
  await db
    .updateTable('contactDeliveries')
    .set({ status: 'sent', attempts: 1, deliveredAt: now, nextAttemptAt: null, updatedAt: now })
    .where('messageId', '=', id)
    .execute()
  return id
}

async function messageExists(id: string) {
  const { getContactMessageForAdmin } = await import('~/modules/inbox/inbox.queries.server')
  return (await getContactMessageForAdmin(id)) !== null
}

test('the inbox is for signed-in administrators only', async ({ page }) => {
  await page.goto('/admin/messages')
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Fadmin%2Fmessages/)
})

test('an administrator reads a message, marks it handled and deletes it after confirming', async ({ page, signIn }) => {
  // Names of their own, so that earlier runs against the same server do not get in the way.
  const suffix = crypto.randomUUID().slice(0, 8)
  const olderName = `Marcia Older ${suffix}`
  const name = `Marcia Henry ${suffix}`
  const older = await receiveMessage(olderName, 'An earlier question about the distribution.')
  await new Promise((resolve) => setTimeout(resolve, 10))
  const id = await receiveMessage(name, 'Our family needs help with school uniforms.\nThank you.')

  await signIn()
  await page.goto('/admin/messages')
  await expect(page.getByRole('heading', { level: 1, name: 'Messages' })).toBeVisible()
  await expect(page.getByText(/\d+ unread messages? of \d+/)).toBeVisible()

  // Newest first, unread, with where it was delivered.
  const rows = page.getByRole('row')
  const names = await rows.getByRole('link').allTextContents()
  expect(names.indexOf(name)).toBeLessThan(names.indexOf(olderName))
  const row = rows.filter({ has: page.getByRole('link', { name }) })
  await expect(row.getByText('Unread')).toBeVisible()
  await expect(row.getByText('Request Assistance')).toBeVisible()
  await expect(row.getByText('Form service: Sent')).toBeVisible()
  const unreadBefore = Number((await page.getByText(/unread message/).textContent())!.match(/\d+/)![0])
  const adminNav = await openAdminNav(page)
  await expect(adminNav.getByRole('link', { name: `Messages ${unreadBefore} unread` })).toBeVisible()
  await closeAdminNav(page)

  await row.getByRole('link', { name }).click()
  await expect(page.getByRole('heading', { level: 1, name: `Message from ${name}` })).toBeVisible()
  await expect(page.getByText('Our family needs help with school uniforms.')).toBeVisible()
  await expect(page.getByRole('link', { name: 'marcia@example.com' })).toHaveAttribute('href', /^mailto:marcia@example\.com/)
  await expect(page.getByRole('link', { name: '+1 268 555 0142' })).toHaveAttribute('href', 'tel:+12685550142')
  const delivery = page.getByRole('region', { name: 'Delivery' })
  await expect(delivery.getByRole('cell', { name: 'Form service' })).toBeVisible()
  await expect(delivery.getByRole('cell', { name: 'Sent' })).toBeVisible()

  // Opening it marked it read.
  await page.getByRole('link', { name: 'All messages' }).click()
  await expect(page.getByText(new RegExp(`^${unreadBefore - 1} unread messages? of|^No unread messages`))).toBeVisible()
  await openAdminNav(page)
  await expect(adminNav.getByRole('link', { name: `Messages ${unreadBefore - 1} unread` })).toBeVisible()
  await closeAdminNav(page)
  await expect(row.getByText('Unread')).toHaveCount(0)
  await row.getByRole('link', { name }).click()

  await page.getByRole('button', { name: 'Mark as handled' }).click()
  await expect(page.getByText('Message marked as handled')).toBeVisible()
  await expect(page.getByRole('term').filter({ hasText: /^Handled$/ })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Mark as not handled' })).toBeVisible()

  // Deleting asks first; cancelling keeps the message.
  await page.getByRole('button', { name: 'Delete message' }).click()
  const dialog = page.getByRole('dialog', { name: 'Are you sure you want to delete this message?' })
  await expect(dialog).toBeVisible()
  await dialog.getByRole('button', { name: 'Cancel' }).click()
  await expect(dialog).toBeHidden()
  expect(await messageExists(id)).toBe(true)

  await page.getByRole('button', { name: 'Delete message' }).click()
  await dialog.getByRole('button', { name: 'Delete' }).click()
  await expect(page).toHaveURL(/\/admin\/messages$/)
  await expect(page.getByText('Message deleted')).toBeVisible()
  await expect(page.getByRole('link', { name })).toHaveCount(0)
  await expect(page.getByRole('link', { name: olderName })).toBeVisible()
  expect(await messageExists(id)).toBe(false)
  expect(await messageExists(older)).toBe(true)
})
