/** The `?page=` of a paged list: 1 when absent, null (answer 404) for anything but a plain page number. */
export function parsePageNumber(value: string | null): number | null {
  if (value === null) return 1
  return /^[1-9]\d{0,5}$/.test(value) ? Number(value) : null
}
