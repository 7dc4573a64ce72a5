import type { Config } from '@react-router/dev/config'

export default {
  ssr: true,
  buildDirectory: process.env.BUILD_DIR ?? 'build',
  // The whole route list arrives with the page's script (2.5 KB compressed): no request per link later.
  routeDiscovery: { mode: 'initial' },
  // Loaders get the request as it came (React Router's own `.data` suffix and `_routes` included)
  // instead of a copy made for each of them; `url` is the page's address.
  // The other three of React Router 8's changes are declined until the upgrade to it (held back by
  // Node 20): said here, each build stops warning about them. Module splitting would load a
  // route's loader code apart from its page; the Environment API changes how the build is made;
  // `.data` addresses would change for pages with a trailing slash.
  future: {
    v8_middleware: true,
    v8_passThroughRequests: true,
    v8_splitRouteModules: false,
    v8_viteEnvironmentApi: false,
    v8_trailingSlashAwareDataRequests: false,
  },
} satisfies Config
