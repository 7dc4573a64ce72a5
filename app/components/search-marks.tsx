import type { TextPart } from '~/modules/search/search-words'

/** A found text with the searched words in <mark>: every part is React text, so the stored text is never read as HTML. */
export function SearchMarks({ parts }: { parts: TextPart[] }) {
  return <>{parts.map((part, index) => (part.marked ? <mark key={index}>{part.text}</mark> : part.text))}</>
}
