/** The time zones the setup offers, each with its offset from UTC today, e.g. "UTC−05:00". */
export function timeZoneChoices(now: Date = new Date()): { value: string; label: string }[] {
  return Intl.supportedValuesOf('timeZone').map((zone) => ({ value: zone, label: offsetOf(zone, now) }))
}

function offsetOf(timeZone: string, now: Date): string {
  const name = new Intl.DateTimeFormat('en', { timeZone, timeZoneName: 'longOffset' })
    .formatToParts(now)
    .find((part) => part.type === 'timeZoneName')?.value
  return name === 'GMT' || !name ? 'UTC' : name.replace('GMT', 'UTC')
}
