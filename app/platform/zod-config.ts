// zod probes `new Function` to speed up object parsing; our CSP forbids eval, and the probe alone
// is reported as a violation. zod reads its settings from this global when it first loads, so
// setting it here (root.tsx's first import, before any schema exists) turns the probe off without
// shipping zod's config module on pages that have no form. The browser tests fail on any CSP
// violation, so a zod release that stops reading the global is caught.
const holder = globalThis as { __zod_globalConfig?: { jitless?: boolean } }
holder.__zod_globalConfig = { ...holder.__zod_globalConfig, jitless: true }

export {}
