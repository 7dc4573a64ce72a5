import path from 'node:path'
import { env } from '../env.server'
import { createLocalDiskStorage } from './local-disk.server'
import type { Storage } from './storage'

export * from './storage'

/** The app's file storage: local disk under DATA_DIR/uploads (an S3 driver can take its place here). */
export const storage: Storage = createLocalDiskStorage(path.join(env.dataDir, 'uploads'))
