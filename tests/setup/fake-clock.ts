import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

const LIBFAKETIME = '/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1'

export interface FakeClock {
  /** The environment that makes a test server's clock read the file (pass it to startTestServer). */
  env: Record<string, string>
  /** Moves the server's wall clock forward, counted from the real time; timers keep running. */
  setAhead(milliseconds: number): void
}

/**
 * A test server whose clock really runs later: Debian's libfaketime, preloaded into the server
 * process, reads the offset from a file the test writes (docs/decisions/027-drafts-schedules-and-trash.md).
 * The server's own code is unchanged; only its view of the time of day moves.
 */
export function createFakeClock(file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'fake-clock-')), 'offset')): FakeClock {
  if (!fs.existsSync(LIBFAKETIME)) {
    throw new Error(`libfaketime is missing at ${LIBFAKETIME}: install it with \`apt-get install faketime\` (.ci/run does).`)
  }
  fs.writeFileSync(file, '+0')
  return {
    env: fakeClockEnv(file),
    setAhead(milliseconds) {
      fs.writeFileSync(file, `+${Math.ceil(milliseconds / 1000)}`)
    },
  }
}

/** The server's side of a fake clock that reads `file` (the browser tests' server is started by Playwright with it). */
export function fakeClockEnv(file: string): Record<string, string> {
  return {
    LD_PRELOAD: LIBFAKETIME,
    FAKETIME_TIMESTAMP_FILE: file,
    FAKETIME_NO_CACHE: '1',
    FAKETIME_DONT_FAKE_MONOTONIC: '1',
  }
}
