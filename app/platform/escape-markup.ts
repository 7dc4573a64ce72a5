/** Escapes text for XML or HTML, where a reader might otherwise take `<`, `&` or quotes as markup. */
export function escapeMarkup(text: string): string {
  return text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`)
}
