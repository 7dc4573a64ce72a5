import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { BUILD_SOURCES } from '../../scripts/sources-fingerprint.mjs'
import { get } from '../setup/http-session'
import { startTestServer } from '../setup/server'

// `npm start` on a copy of the project with its build (npm test builds first): a restart with nothing
// changed runs the build there is; any change to the code (newer or older) builds again first.
const root = path.resolve(import.meta.dirname, '../..')
const checkout = fs.mkdtempSync(path.join(os.tmpdir(), 'npm-start-'))
afterAll(() => fs.rmSync(checkout, { recursive: true, force: true }))

// What the build reads (node_modules is linked), and the script that decides.
const PROJECT = [...BUILD_SOURCES.filter((source) => !source.startsWith('node_modules')), 'scripts']
// cp -a keeps every file's and folder's times, as they were when the build was made.
execFileSync('cp', ['-a', '--parents', ...PROJECT, checkout], { cwd: root })
execFileSync('cp', ['-a', path.join(root, process.env.BUILD_DIR ?? 'build'), path.join(checkout, 'build')])
fs.symlinkSync(path.join(root, 'node_modules'), path.join(checkout, 'node_modules'))

async function npmStart(): Promise<string> {
  const server = await startTestServer({}, { script: 'npm start', checkout })
  try {
    expect((await get(server, '/healthz')).status).toBe(200)
    return server.output()
  } finally {
    await server.stop()
  }
}

describe('npm start', () => {
  it('runs the build there is when nothing changed since it was made', async () => {
    expect(await npmStart()).not.toContain('Building the site')
  })

  it('builds first when the code changed since the last build, and not again after', async () => {
    const later = new Date(Date.now() + 2_000)
    fs.utimesSync(path.join(checkout, 'app', 'root.tsx'), later, later)
    const output = await npmStart()
    expect(output).toContain('Building the site: the code changed since the last build.')
    expect(output).toMatch(/Listening on http:/)
    expect(await npmStart()).not.toContain('Building the site')
  }, 240_000)

  it('builds first when a file is put back with an older time, as a copy or a restored backup does', async () => {
    const dayBefore = new Date(Date.now() - 86_400_000)
    fs.utimesSync(path.join(checkout, 'app', 'root.tsx'), dayBefore, dayBefore)
    expect(await npmStart()).toContain('Building the site: the code changed since the last build.')
  }, 240_000)

  it('builds first when there is no build at all', async () => {
    fs.rmSync(path.join(checkout, 'build'), { recursive: true })
    const output = await npmStart()
    expect(output).toContain('Building the site: there is no build yet.')
    // Quiet: the bundlers' report, Vite's notices to React Router and React Router's future flags are not the user's to read.
    expect(output).toMatch(/Built in \d+ s\./)
    expect(output).not.toMatch(/deprecated|Future Flag|modules transformed/i)
    expect(fs.existsSync(path.join(checkout, 'build', 'server', 'start.js'))).toBe(true)
  }, 240_000)
})
