// `npm start` (and `npm run start:cluster`, with `cluster`): builds the site when its build is
// missing or was made from other sources than today's, then runs it. A restart with nothing
// changed starts at once instead of building for most of a minute. Plain JavaScript, so that
// deciding costs no TypeScript compiler.
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { fingerprintFile, sourcesFingerprint } from './sources-fingerprint.mjs'

const root = path.resolve(import.meta.dirname, '..')
const buildDirectory = path.resolve(root, process.env.BUILD_DIR ?? 'build')
const program = process.argv[2] === 'cluster' ? 'start-cluster.js' : 'start.js'
const built = path.join(buildDirectory, 'server', program)

/** Why the site must be built first, or null when its build is current. */
function reasonToBuild() {
  const recorded = fingerprintFile(buildDirectory)
  if (!fs.existsSync(built) || !fs.existsSync(recorded)) return 'there is no build yet'
  return fs.readFileSync(recorded, 'utf8') === sourcesFingerprint(root) ? null : 'the code changed since the last build'
}

const reason = reasonToBuild()
if (reason) {
  console.log(`Building the site: ${reason}.`)
  const started = Date.now()
  // The bundlers' own report (timings, file sizes, notices for React Router's developers) is
  // shown only when the build fails: then it says why.
  const build = spawnSync(process.execPath, [path.join(root, 'node_modules', '@react-router', 'dev', 'bin.js'), 'build'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  })
  if (build.status !== 0) {
    process.stderr.write(`${build.stdout ?? ''}${build.stderr ?? ''}\nThe build failed.\n`)
    process.exit(build.status ?? 1)
  }
  console.log(`Built in ${Math.round((Date.now() - started) / 1000)} s.`)
}
await import(built)
