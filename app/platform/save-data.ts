/**
 * Whether a visitor asked to save data: `Save-Data: on`, or a 2G connection as Chrome reports it
 * (the `ECT` hint, sent once a page has asked for it with `Accept-CH`). Such a visitor gets the
 * smallest pictures that fill their boxes, and videos that load nothing until played. Only two
 * kinds of page exist, so junk in these headers cannot multiply the pages kept in memory.
 */
export function savesData(saveData: string | null | undefined, ect: string | null | undefined): boolean {
  return saveData?.trim().toLowerCase() === 'on' || /^(slow-)?2g$/i.test(ect?.trim() ?? '')
}

/** The request headers a page's HTML depends on through `savesData`. */
export const SAVE_DATA_HEADERS = ['Save-Data', 'ECT'] as const
