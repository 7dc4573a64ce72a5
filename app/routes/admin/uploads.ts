import type { Route } from './+types/uploads'
import { requireAccess } from '~/platform/auth.server'
import { handleUploadRequest } from '~/platform/media/uploads.server'

// The tus endpoint for resumable uploads (docs/decisions/009-resumable-uploads.md). The server
// refuses cross-site writes before this runs; the admin layout and this access check refuse the rest.

export async function loader({ request, params, context }: Route.LoaderArgs) {
  return handleUploadRequest(request, await requireAccess({ request, context }, 'uploads'), params.uploadId)
}

export async function action({ request, params, context }: Route.ActionArgs) {
  return handleUploadRequest(request, await requireAccess({ request, context }, 'uploads'), params.uploadId)
}
