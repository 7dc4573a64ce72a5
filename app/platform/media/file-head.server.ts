import fs from 'node:fs'

/** The first bytes of a file on disk, enough to recognise an image or a video by its content. */
export async function readFileHead(file: string, length = 64): Promise<Buffer> {
  const handle = await fs.promises.open(file, 'r')
  try {
    const head = Buffer.alloc(length)
    const { bytesRead } = await handle.read(head, 0, head.length, 0)
    return head.subarray(0, bytesRead)
  } finally {
    await handle.close()
  }
}
