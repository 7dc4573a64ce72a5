import { config } from 'zod/v4/core'

// zod probes `new Function` to speed up object parsing; our CSP forbids eval, and the probe alone
// is reported as a violation. This module is root.tsx's first import, so it runs before any schema
// is built in the browser (and on the server, where the speed-up is not worth a second path).
config({ jitless: true })
