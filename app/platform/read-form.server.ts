import { data } from 'react-router'
import { UNREADABLE_FORM_MESSAGE } from './form-entries'

/**
 * The posted form, or null when it holds more than `maxEntries` entries: those are counted in the
 * raw bytes before anything is parsed (cheap), as building a FormData of millions is not. A body
 * that is no form (JSON, plain text, a broken upload) gets a 400, not a 500.
 */
export async function readFormData(request: Request, maxEntries: number): Promise<FormData | null> {
  try {
    const contentType = request.headers.get('content-type') ?? ''
    const body = Buffer.from(await request.arrayBuffer())
    if (entriesAtLeast(body, contentType, maxEntries + 1)) return null
    return await new Response(body, { headers: { 'content-type': contentType } }).formData()
  } catch {
    throw data(UNREADABLE_FORM_MESSAGE, { status: 400 })
  }
}

/** Whether a form body holds at least `count` entries (an URL-encoded pair or a multipart part each). */
function entriesAtLeast(body: Buffer, contentType: string, count: number): boolean {
  const boundary = /^multipart\/form-data\b.*;\s*boundary=(?:"([^"]+)"|([^\s;]+))/i.exec(contentType)
  // Multipart: every part starts with `--boundary`, and one more ends the body. URL-encoded: pairs end with `&`.
  const separator = boundary ? `--${boundary[1] ?? boundary[2]}` : '&'
  const needed = boundary ? count + 1 : count - 1
  let found = 0
  for (let at = body.indexOf(separator); at !== -1 && found < needed; at = body.indexOf(separator, at + separator.length)) {
    found++
  }
  return found >= needed
}
