/** Whether an Accept-Encoding header takes `encoding` (listed, and not with q=0). */
export function acceptsEncoding(header: string | undefined, encoding: string): boolean {
  return (header ?? '').split(',').some((part) => {
    const [name, ...params] = part.split(';').map((piece) => piece.trim())
    return name === encoding && !params.some((param) => /^q=0(\.0*)?$/.test(param))
  })
}

/** The smallest form of a body the client takes: brotli, then gzip, else as it is. */
export function bestEncoding(
  forms: { identity: Buffer; br?: Buffer; gzip?: Buffer },
  acceptEncoding: string | undefined,
): [Buffer, 'br' | 'gzip' | null] {
  if (forms.br && acceptsEncoding(acceptEncoding, 'br')) return [forms.br, 'br']
  if (forms.gzip && acceptsEncoding(acceptEncoding, 'gzip')) return [forms.gzip, 'gzip']
  return [forms.identity, null]
}
