import type { S3StorageSettings } from './storage'

/** How the site talks to the bucket: the file storage and the resumable uploads' store alike. */
export function s3ClientConfig(settings: S3StorageSettings) {
  return {
    endpoint: settings.endpoint,
    region: settings.region,
    forcePathStyle: settings.forcePathStyle,
    credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
    // Checksums only where S3 requires them: many S3-compatible services reject the newer
    // default ones, and every body we send has a known length anyway.
    requestChecksumCalculation: 'WHEN_REQUIRED' as const,
    responseChecksumValidation: 'WHEN_REQUIRED' as const,
  }
}
