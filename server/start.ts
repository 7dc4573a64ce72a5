// The built server's entry, `node build/server/start.js` (server/index.ts does the work). React
// chooses its production or development code from NODE_ENV when it is first loaded, and its
// development code renders several times slower: the server runs in production unless told
// otherwise (`npm start`, the systemd units), so this is set before anything loads React.
import v8 from 'node:v8'

process.env.NODE_ENV ??= 'production'
// After each full collection V8 lets the heap grow to up to four times what survived when pages
// are made fast; nearly all of what a page allocates dies young, so that room only held garbage.
// Twice what survived kept the server under load at about 200 MB instead of 330 MB, for the same
// processor time per page (docs/performance.md). V8 reads this setting at each collection; one
// given on Node's command line wins.
if (!process.execArgv.some((arg) => arg.startsWith('--heap-growing-percent'))) {
  v8.setFlagsFromString('--heap-growing-percent=100')
}
await import('./index')

export {}
