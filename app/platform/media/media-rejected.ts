/**
 * An upload (image or video) was refused; `message` is meant for the person who uploaded it and
 * is shown in the form, with `status` (400: the file; 507: the server has no room for it).
 * Every media check throws this one type.
 */
export class MediaRejectedError extends Error {
  constructor(
    message: string,
    readonly status: 400 | 507 = 400,
  ) {
    super(message)
    this.name = 'MediaRejectedError'
  }
}

export const STORAGE_FULL_MESSAGE =
  'The server has no room left to store this file, so nothing was saved. Please tell the person who looks after the site.'
