import type { TestServer } from './server'

/**
 * Uploads `bytes` through the site's tus endpoint, as `cookie`'s user, in chunks of `chunkBytes`
 * (all at once by default), and returns the upload's id.
 */
export async function uploadOverHttp(
  server: Pick<TestServer, 'url'>,
  cookie: string,
  bytes: Buffer,
  filename: string,
  filetype: string,
  chunkBytes = bytes.length,
): Promise<string> {
  const headers = { origin: server.url, cookie, 'tus-resumable': '1.0.0' }
  const metadata = [
    `filename ${Buffer.from(filename).toString('base64')}`,
    `filetype ${Buffer.from(filetype).toString('base64')}`,
  ]
  const created = await fetch(`${server.url}/admin/uploads`, {
    method: 'POST',
    redirect: 'manual',
    headers: { ...headers, 'upload-length': String(bytes.length), 'upload-metadata': metadata.join(',') },
  })
  if (created.status !== 201) throw new Error(`Creating the upload answered ${created.status}`)
  const location = created.headers.get('location')!
  for (let offset = 0; offset < bytes.length; offset += chunkBytes) {
    const sent = await fetch(server.url + location, {
      method: 'PATCH',
      redirect: 'manual',
      headers: { ...headers, 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
      body: new Uint8Array(bytes.subarray(offset, offset + chunkBytes)),
    })
    if (sent.status !== 204) throw new Error(`Sending the upload at byte ${offset} answered ${sent.status}`)
  }
  return location.split('/').pop()!
}
