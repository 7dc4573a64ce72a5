import path from 'node:path'
import { env } from '../env.server'
import { createLocalDiskStorage } from './local-disk.server'
import type { Storage } from './storage'

export * from './storage'

/**
 * The app's file storage, as STORAGE_DRIVER says: local disk under DATA_DIR/uploads, or an S3
 * bucket. The AWS SDK is loaded only for S3: it is the largest library the site has.
 */
export const storage: Storage = env.s3
  ? (await import('./s3.server')).createS3Storage(env.s3)
  : createLocalDiskStorage(path.join(env.dataDir, 'uploads'))

/** Where the files are, for messages to the operator (backup, restore). */
export const storageLocation = env.s3
  ? `the S3 bucket "${env.s3.bucket}"${env.s3.endpoint ? ` at ${env.s3.endpoint}` : ''}`
  : path.join(env.dataDir, 'uploads')
