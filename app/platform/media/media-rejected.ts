/**
 * An upload (image or video) was refused; `message` is meant for the person who uploaded it and
 * is shown in the form. Every media check throws this one type.
 */
export class MediaRejectedError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'MediaRejectedError'
  }
}
