// `npm start`: builds the site when its build is missing or older than what it is built from, then
// runs it. A restart with nothing changed starts at once instead of building for most of a minute.
// Plain JavaScript, so that deciding costs no TypeScript compiler.
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'

const root = path.resolve(import.meta.dirname, '..')
const buildDirectory = path.resolve(root, process.env.BUILD_DIR ?? 'build')
const built = path.join(buildDirectory, 'server', 'start.js')
/** When the build began reading the sources, written by the build (vite.config.ts). */
const sourcesAsOf = path.join(buildDirectory, 'server', 'sources-as-of')
/** What the build is made from: the code, the static files, the dependencies and the build's settings. */
const SOURCES = [
  'app',
  'server',
  'db',
  'public',
  'package.json',
  'package-lock.json',
  'vite.config.ts',
  'react-router.config.ts',
  'tsconfig.json',
]

/** The latest time anything under `entry` was changed (0 when it does not exist). */
function lastChange(entry) {
  let stat
  try {
    stat = fs.statSync(entry)
  } catch {
    return 0
  }
  if (!stat.isDirectory()) return stat.mtimeMs
  let latest = stat.mtimeMs
  for (const name of fs.readdirSync(entry)) latest = Math.max(latest, lastChange(path.join(entry, name)))
  return latest
}

/** Why the site must be built first, or null when its build is current. */
function reasonToBuild() {
  if (!fs.existsSync(built) || !fs.existsSync(sourcesAsOf)) return 'there is no build yet'
  const builtAt = Date.parse(fs.readFileSync(sourcesAsOf, 'utf8'))
  const changed = SOURCES.find((source) => lastChange(path.join(root, source)) > builtAt)
  return changed ? `${changed} changed since the last build` : null
}

const reason = reasonToBuild()
if (reason) {
  console.log(`Building the site: ${reason}.`)
  const build = spawnSync(process.execPath, [path.join(root, 'node_modules', '@react-router', 'dev', 'bin.js'), 'build'], {
    cwd: root,
    stdio: 'inherit',
  })
  if (build.status !== 0) process.exit(build.status ?? 1)
}
await import(built)
