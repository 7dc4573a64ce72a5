import type { TestServer } from './server'

/** Uploads `bytes` through the site's tus endpoint in one chunk, as `cookie`'s user, and returns the upload's id. */
export async function uploadOverHttp(
  server: TestServer,
  cookie: string,
  bytes: Buffer,
  filename: string,
  filetype: string,
): Promise<string> {
  const headers = { origin: server.url, cookie, 'tus-resumable': '1.0.0' }
  const metadata = [`filename ${Buffer.from(filename).toString('base64')}`, `filetype ${Buffer.from(filetype).toString('base64')}`]
  const created = await fetch(`${server.url}/admin/uploads`, {
    method: 'POST',
    redirect: 'manual',
    headers: { ...headers, 'upload-length': String(bytes.length), 'upload-metadata': metadata.join(',') },
  })
  if (created.status !== 201) throw new Error(`Creating the upload answered ${created.status}`)
  const location = created.headers.get('location')!
  const sent = await fetch(server.url + location, {
    method: 'PATCH',
    redirect: 'manual',
    headers: { ...headers, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
    body: new Uint8Array(bytes),
  })
  if (sent.status !== 204) throw new Error(`Sending the upload answered ${sent.status}`)
  return location.split('/').pop()!
}
