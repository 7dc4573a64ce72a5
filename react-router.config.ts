import type { Config } from '@react-router/dev/config'

export default {
  ssr: true,
  buildDirectory: process.env.BUILD_DIR ?? 'build',
  // The whole route list arrives with the page's script (2.5 KB compressed): no request per link
  // later, and app/components/deferred-scripts.tsx relies on it.
  routeDiscovery: { mode: 'initial' },
  future: { v8_middleware: true },
} satisfies Config
