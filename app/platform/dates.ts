/** A day as people read it ('March 5, 2026'), in the site's time zone. Run on the server so the browser shows the same. */
export function formatDay(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone }).format(new Date(iso))
}
