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
export function createFakeClock(): FakeClock {
  if (!fs.existsSync(LIBFAKETIME)) {
    throw new Error(`libfaketime is missing at ${LIBFAKETIME}: install it with \`apt-get install faketime\` (.ci/run does).`)
  }
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'fake-clock-')), 'offset')
  fs.writeFileSync(file, '+0')
  return {
    env: {
      LD_PRELOAD: LIBFAKETIME,
      FAKETIME_TIMESTAMP_FILE: file,
      FAKETIME_NO_CACHE: '1',
      FAKETIME_DONT_FAKE_MONOTONIC: '1',
    },
    setAhead(milliseconds) {
      fs.writeFileSync(file, `+${Math.ceil(milliseconds / 1000)}`)
    },
  }
}
