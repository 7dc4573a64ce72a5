import { useRouteLoaderData } from 'react-router'
import { DEFAULT_SITE_SETTINGS } from '~/modules/settings/settings.defaults'
import type { loader as rootLoader } from '~/root'

/**
 * The root loader's data: site settings, the signed-in user (or null), the current year and
 * the upload limit.
 * Falls back to defaults when the root loader itself failed (its error page still needs a frame).
 */
export function useRootData() {
  const data = useRouteLoaderData<typeof rootLoader>('root')
  return {
    settings: data?.settings ?? DEFAULT_SITE_SETTINGS,
    user: data?.user ?? null,
    /** The message handed over by a redirect (see app/platform/toast.server.ts). */
    toast: data?.toast ?? null,
    year: data?.year ?? String(new Date().getFullYear()),
    /** The largest request body the server takes (MAX_BODY_MB). */
    uploadLimitBytes: data?.uploadLimitBytes ?? 12 * 1024 * 1024,
    /** The form just posted was too large to be read (the page shows it again with a notice). */
    bodyTooLarge: data?.bodyTooLarge ?? false,
    /** The visitor asked to save data: smallest pictures, videos loaded only when played. */
    savesData: data?.savesData ?? false,
  }
}
