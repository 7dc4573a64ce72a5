import { spawn } from 'node:child_process'
import path from 'node:path'

const root = path.resolve(import.meta.dirname, '../..')

/**
 * Runs `scripts/<script>.ts` as `npm run` would, with `env` (by default this process's, which
 * holds the test database's DATA_DIR / DATABASE_URL) and `stdin` piped in.
 */
export function runScript(
  script: string,
  args: string[],
  { env = process.env, stdin = '' }: { env?: NodeJS.ProcessEnv; stdin?: string } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(path.join(root, 'node_modules/.bin/tsx'), [`scripts/${script}.ts`, ...args], {
      cwd: root,
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d) => (stdout += d))
    child.stderr.on('data', (d) => (stderr += d))
    child.on('error', reject)
    child.on('exit', (code) => resolve({ code, stdout, stderr }))
    child.stdin.end(stdin)
  })
}
