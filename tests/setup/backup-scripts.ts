import { spawn } from 'node:child_process'
import path from 'node:path'

const root = path.resolve(import.meta.dirname, '../..')

/** Runs `npm run backup` or `npm run restore` as a child process with only the given settings. */
export function runBackupScript(script: 'backup' | 'restore', args: string[], env: Record<string, string>) {
  const child = spawn(path.join(root, 'node_modules/.bin/tsx'), [`scripts/${script}.ts`, ...args], {
    cwd: root,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
  })
  let output = ''
  child.stdout.on('data', (d) => (output += d))
  child.stderr.on('data', (d) => (output += d))
  return new Promise<{ code: number | null; output: string }>((resolve) => child.on('close', (code) => resolve({ code, output })))
}
