import { afterAll } from 'vitest'
import { stopServersLeftRunning } from './server-process'

// Runs before each HTTP test file: once the file's own hooks are done, the servers it left
// running (a failed test skips its own stop) are stopped and their databases dropped.
afterAll(stopServersLeftRunning)
