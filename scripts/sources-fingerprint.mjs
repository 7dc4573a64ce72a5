// What the site's build is made from, as one fingerprint: the path, size and time of every file
// of the code, the static files, the dependencies installed and the build's settings. The build
// writes the fingerprint it began with (vite.config.ts); `npm start` builds again whenever today's
// differs (scripts/start.mjs). A difference, not an order: a file copied with its old time, one
// deleted, one from a clock ahead, or a new `npm install`, each makes a new build.
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'

/** Every folder and file the build reads, from the project's root. */
export const BUILD_SOURCES = [
  'app',
  'server',
  'db',
  'public',
  'docs/guide',
  'package.json',
  'package-lock.json',
  'node_modules/.package-lock.json',
  'vite.config.ts',
  'react-router.config.ts',
  'tsconfig.json',
]

/** Every file under `entry` (a path from `root`), as `path size time` lines. */
function filesOf(root, entry, lines) {
  let stat
  try {
    stat = fs.statSync(path.join(root, entry))
  } catch {
    return
  }
  if (!stat.isDirectory()) {
    lines.push(`${entry} ${stat.size} ${stat.mtimeMs}`)
    return
  }
  for (const name of fs.readdirSync(path.join(root, entry)).sort()) filesOf(root, path.join(entry, name), lines)
}

/** The fingerprint of the sources under `root` as they are now. */
export function sourcesFingerprint(root) {
  const lines = []
  for (const source of BUILD_SOURCES) filesOf(root, source, lines)
  return crypto.createHash('sha256').update(lines.join('\n')).digest('hex')
}

/** Where the build keeps the fingerprint it was made from. */
export function fingerprintFile(buildDirectory) {
  return path.join(buildDirectory, 'server', 'sources-fingerprint')
}
