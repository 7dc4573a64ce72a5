import fs from 'node:fs'
import path from 'node:path'
import zlib from 'node:zlib'
import { reactRouter } from '@react-router/dev/vite'
import esbuild from 'esbuild'
import { defineConfig, type Plugin } from 'vite'
import { fingerprintFile, sourcesFingerprint } from './scripts/sources-fingerprint.mjs'

/**
 * Writes `.br` and `.gz` beside each script and style of the browser build, compressed once at
 * their best, so that the server (server/static-files.ts) never compresses them per request. It
 * runs after the app's server build, which is when React Router writes its route list
 * (`assets/manifest-*.js`) into the browser build.
 */
function precompressAssets(): Plugin {
  return {
    name: 'precompress-assets',
    apply: 'build',
    writeBundle(options) {
      if (!options.dir || path.basename(options.dir) !== 'server') return
      const clientDir = path.join(options.dir, '..', 'client')
      for (const fileName of fs.readdirSync(clientDir, { recursive: true, encoding: 'utf8' })) {
        if (!/\.(js|css|svg|json)$/.test(fileName)) continue
        const file = path.join(clientDir, fileName)
        const content = fs.readFileSync(file)
        fs.writeFileSync(`${file}.gz`, zlib.gzipSync(content, { level: 9 }))
        fs.writeFileSync(
          `${file}.br`,
          zlib.brotliCompressSync(content, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }),
        )
      }
    },
  }
}

/**
 * Compiles the HTTP server (server/index.ts, server/cluster.ts) beside the app's server build, as
 * `server/start.js` and `server/start-cluster.js`: production runs plain JavaScript, with no
 * TypeScript compiler loaded at every start (it took half a second and a hundred megabytes).
 * Then writes the fingerprint of the sources the build began with (scripts/sources-fingerprint.mjs),
 * which `npm start` compares with today's.
 */
function bundleServer(): Plugin {
  return {
    name: 'bundle-server',
    apply: 'build',
    buildStart() {
      // Once per `react-router build`: Vite loads this file again for the server build.
      process.env.SOURCES_FINGERPRINT ??= sourcesFingerprint(import.meta.dirname)
    },
    async writeBundle(options) {
      if (!options.dir || path.basename(options.dir) !== 'server') return
      await esbuild.build({
        entryPoints: { start: 'server/start.ts', 'start-cluster': 'server/cluster.ts' },
        outdir: options.dir,
        bundle: true,
        // server/index.ts goes in a file of its own, loaded by start.js once NODE_ENV is set.
        splitting: true,
        chunkNames: 'server-[hash]',
        platform: 'node',
        format: 'esm',
        target: 'node20',
        packages: 'external',
        alias: { '~': './app' },
        logLevel: 'warning',
      })
      fs.writeFileSync(fingerprintFile(path.dirname(options.dir)), process.env.SOURCES_FINGERPRINT ?? '')
    },
  }
}

export default defineConfig({
  plugins: [reactRouter(), precompressAssets(), bundleServer()],
  resolve: { alias: { '~': path.resolve(import.meta.dirname, 'app') } },
  build: { assetsInlineLimit: 0 },
})
