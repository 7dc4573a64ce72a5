import { describe, expect, it } from 'vitest'
import { get, post } from '../setup/http-session'
import { queryServerDatabase } from '../setup/server-database'
import { startServerForFileSignedIn } from '../setup/server-for-file'
import { WHATSAPP_NUMBER_MESSAGE } from '~/modules/marketplace/marketplace.schema'

// The demo site's calling code is +1 268 (Antigua and Barbuda, in the North American plan).
const { server, admin } = await startServerForFileSignedIn()

function addProduct(name: string, whatsappNumber: string) {
  return post(server, '/admin/products/new', { name, description: 'Made at home.', category: 'general', whatsappNumber }, admin)
}

async function storedNumber(slug: string): Promise<string | undefined> {
  const rows = await queryServerDatabase<{ number: string }>(
    server,
    `select whatsapp_number as number from products where slug = '${slug}'`,
  )
  return rows[0]?.number
}

/** An HTML page's text as it shows the value of an attribute or element (the entities React writes, decoded). */
function decoded(html: string): string {
  return html.replaceAll('&quot;', '"').replaceAll('&#x27;', "'").replaceAll('&amp;', '&')
}

describe('a WhatsApp number typed in the product form', () => {
  it.each([
    ['(268) 555-7788', 'Coconut Tart', 'coconut-tart'],
    ['268-555-7788', 'Guava Jam', 'guava-jam'],
  ])('goes to +1 268 when typed as it is dialled in Antigua: %s', async (typed, name, slug) => {
    const added = await addProduct(name, typed)
    expect(added.status).toBe(302)
    expect(await storedNumber(slug)).toBe('12685557788')

    // The product's page shows the number the chat goes to, and links to it.
    const page = await (await get(server, `/marketplace/${slug}`)).text()
    expect(page).toMatch(/href="https:\/\/wa\.me\/12685557788\?text=/)
    expect(page).toContain('<span class="product-contact-number">+1 268 555 7788</span>')

    // The edit form shows it back, without JavaScript, and saving it unchanged keeps it.
    const [{ id }] = await queryServerDatabase<{ id: string }>(server, `select id from products where slug = '${slug}'`)
    const form = await (await get(server, `/admin/products/${id}`, admin)).text()
    expect(form).toMatch(/<input[^>]*name="whatsappNumber"[^>]*value="\+1 268 555 7788"/)
    expect(form).toMatch(/<output[^>]*class="field-note"[^>]*>Chats will go to <strong>\+1 268 555 7788<\/strong><\/output>/)
    const edit = { name, description: 'Made at home.', category: 'general', whatsappNumber: '+1 268 555 7788' }
    const saved = await post(server, `/admin/products/${id}`, edit, admin)
    expect(saved.status).toBe(302)
    expect(await storedNumber(slug)).toBe('12685557788')
  })

  it.each([
    ['words', 'call me'],
    ['a number too short for the area code', '268 555 77'],
    ['a number from abroad without its +', '44 20 7946 0958'],
    ['a +1 number of 9 digits', '+1 268 555 778'],
    ['an area code starting with 1', '(168) 555-7788'],
  ])('refuses %s with a plain message and stores nothing', async (_what, typed) => {
    const refused = await addProduct('Mango chutney', typed)
    expect(refused.status).toBe(400)
    expect(decoded(await refused.text())).toContain(WHATSAPP_NUMBER_MESSAGE)
    expect(await storedNumber('mango-chutney')).toBeUndefined()
  })
})
