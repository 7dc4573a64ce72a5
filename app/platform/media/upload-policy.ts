/** Limits of resumable uploads, shared by the browser component and the server. */

/** Where the tus endpoint is mounted (app/routes/admin/uploads.ts). */
export const UPLOAD_ENDPOINT = '/admin/uploads'

/** The browser sends files in chunks of this size: each request stays far below the server's body limit. */
export const UPLOAD_CHUNK_BYTES = 5 * 1024 * 1024

/** Largest file, declared (Upload-Length) or actually sent. */
export const UPLOAD_MAX_BYTES = 50 * 1024 * 1024
export const UPLOAD_MAX_MB = UPLOAD_MAX_BYTES / 1024 / 1024

/**
 * Room the uploads' disk must keep once every accepted upload has fully arrived: an upload that
 * would leave less is refused before it starts (the database, images and logs need space too).
 */
export const UPLOAD_DISK_RESERVE_BYTES = 256 * 1024 * 1024

/** Why the server refused to start an upload, in words the upload field shows after the file's name. */
export const UPLOAD_REFUSED = {
  tooLarge: `The file is too large. Maximum size is ${UPLOAD_MAX_MB} MB.`,
  tooManyUnfinished: (limit: number) =>
    `You already have ${limit} uploads that have not finished, the most allowed at once. Wait for some of them to finish, or remove some, then try again.`,
  tooLargeWithUnfinished: (limitMb: number) =>
    `Together with your uploads that have not finished, this file would come to more than ${limitMb} MB, the most allowed at once. Wait for some of them to finish, or remove some, then try again.`,
  tooManyThisHour: (limit: number, wait: string) =>
    `You have started ${limit} uploads in the last hour, the most allowed. Please try again in ${wait}.`,
  tooLargeThisHour: (limitMb: number, wait: string) =>
    `This file would take your uploads in the last hour over ${limitMb} MB, the most allowed. Please try again in ${wait}.`,
  diskFull: 'The server has no room left for this file, so it was not uploaded. Please tell the person who looks after the site.',
}
