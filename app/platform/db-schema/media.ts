/** Tables of stored images and videos and of the uploads they come from. */

export interface ImageTable {
  id: string
  width: number
  height: number
  alt: string
  /** JSON list of ImageVariant (see platform/media/images.server.ts). */
  variants: string
  createdAt: string
}

/** A resumable upload in progress or finished but not yet used (see platform/media/uploads.server.ts). */
export interface UploadTable {
  id: string
  userId: string
  filename: string
  contentType: string
  /** The declared total size in bytes (Upload-Length). */
  size: number
  /** Bytes that have arrived, as of the last chunk: below `size`, the upload is unfinished. */
  received: number
  createdAt: string
  /** Last time a chunk arrived: idle uploads are removed (unfinished after an hour, finished after a day). */
  updatedAt: string
}

/** An upload started in the last hour, kept for the hourly quota after the upload is gone. */
export interface UploadStartTable {
  uploadId: string
  userId: string
  /** The declared size in bytes. */
  size: number
  startedAt: string
}

/** A process writing to an upload (see platform/media/upload-locks.server.ts). */
export interface UploadLockTable {
  uploadId: string
  /** A lease token: it names the process, so a lock of a killed process is taken over at once. */
  holder: string
  /** A live holder renews it every second; a lock past it is free. */
  expiresAt: string
  /** Another request asked for the upload: the holder ends its request (a client resuming after a dropped connection). */
  wantedAt: string | null
}

/** A video and its conversion job (see platform/media/videos.server.ts). */
export interface VideoTable {
  id: string
  status: 'processing' | 'ready' | 'failed'
  /** For the admin: why it failed, or why it is shown unconverted. */
  statusText: string | null
  filename: string
  /** The container found by content when it was uploaded. */
  originalFormat: 'mp4' | 'webm' | 'mov'
  videoKey: string | null
  posterImageId: string | null
  width: number | null
  height: number | null
  durationMs: number | null
  attempts: number
  nextAttemptAt: string | null
  leaseToken: string | null
  leaseExpiresAt: string | null
  createdAt: string
  updatedAt: string
}
