/** Limits of resumable uploads, shared by the browser component and the server. */

/** Where the tus endpoint is mounted (app/routes/admin/uploads.ts). */
export const UPLOAD_ENDPOINT = '/admin/uploads'

/** The browser sends files in chunks of this size: each request stays far below the server's body limit. */
export const UPLOAD_CHUNK_BYTES = 5 * 1024 * 1024

/** Largest file, declared (Upload-Length) or actually sent. */
export const UPLOAD_MAX_BYTES = 50 * 1024 * 1024
export const UPLOAD_MAX_MB = UPLOAD_MAX_BYTES / 1024 / 1024
