import type { Config } from '@react-router/dev/config'

export default {
  ssr: true,
  buildDirectory: process.env.BUILD_DIR ?? 'build',
  // The whole route list arrives with the page's script (2.5 KB compressed): no request per link later.
  routeDiscovery: { mode: 'initial' },
  // Loaders get the request as it came (React Router's own `.data` suffix and `_routes` included)
  // instead of a copy made for each of them; `url` is the page's address.
  future: { v8_middleware: true, v8_passThroughRequests: true },
} satisfies Config
