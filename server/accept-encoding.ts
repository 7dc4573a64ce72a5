/** Whether an Accept-Encoding header takes `encoding` (a lower-case name: listed, and not with q=0). */
export function acceptsEncoding(header: string | undefined, encoding: string): boolean {
  return (header ?? '').split(',').some((part) => {
    const [name, ...params] = part.split(';').map((piece) => piece.trim())
    // Names and the q parameter are case-insensitive (RFC 9110, 12.4.2 and 12.5.3).
    return name.toLowerCase() === encoding && !params.some((param) => /^q\s*=\s*0(\.0{0,3})?$/i.test(param))
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
