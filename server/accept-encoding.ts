/** Whether an Accept-Encoding header takes `encoding` (listed, and not with q=0). */
export function acceptsEncoding(header: string | undefined, encoding: string): boolean {
  return (header ?? '').split(',').some((part) => {
    const [name, ...params] = part.split(';').map((piece) => piece.trim())
    return name === encoding && !params.some((param) => /^q=0(\.0*)?$/.test(param))
  })
}
