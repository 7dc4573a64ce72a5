const THUMBNAIL_WIDTH = 192

/**
 * A small copy of a chosen image, drawn by the browser, for a preview before it is sent. A data:
 * URL rather than an object URL: a thumbnail is small, and nothing then holds on to the whole file.
 * Null when the browser cannot read the file (the server will say what is wrong with it).
 */
export async function makeThumbnail(file: File): Promise<string | null> {
  try {
    const bitmap = await createImageBitmap(file, { resizeWidth: THUMBNAIL_WIDTH, resizeQuality: 'medium' })
    const canvas = document.createElement('canvas')
    canvas.width = bitmap.width
    canvas.height = bitmap.height
    canvas.getContext('2d')?.drawImage(bitmap, 0, 0)
    bitmap.close()
    return canvas.toDataURL('image/jpeg', 0.8)
  } catch {
    return null
  }
}
