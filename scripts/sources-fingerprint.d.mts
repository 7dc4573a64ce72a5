/** Every folder and file the build reads, from the project's root. */
export const BUILD_SOURCES: readonly string[]
/** The fingerprint of the sources under `root` as they are now (scripts/sources-fingerprint.mjs). */
export function sourcesFingerprint(root: string): string
/** Where the build keeps the fingerprint it was made from. */
export function fingerprintFile(buildDirectory: string): string
