// The built server's entry, `node build/server/start.js` (server/index.ts does the work). React
// chooses its production or development code from NODE_ENV when it is first loaded, and its
// development code renders several times slower: the server runs in production unless told
// otherwise (`npm start`, the systemd units), so this is set before anything loads React.
process.env.NODE_ENV ??= 'production'
await import('./index')

export {}
