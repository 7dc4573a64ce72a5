/** Debian's Chromium (apt-get install -y chromium): the browser tests and the benchmarks drive it. */
export const CHROMIUM = '/usr/bin/chromium'

/** For servers and containers: no sandbox or GPU, and no background traffic of the browser's own. */
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]
