import fs from 'node:fs'
import path from 'node:path'
import zlib from 'node:zlib'
import { reactRouter } from '@react-router/dev/vite'
import { defineConfig, type Plugin } from 'vite'

/**
 * Writes `.br` and `.gz` beside each script and style of the browser build, compressed once at
 * their best, so that the server (server/static-files.ts) never compresses them per request.
 */
function precompressAssets(): Plugin {
  return {
    name: 'precompress-assets',
    apply: 'build',
    writeBundle(options, bundle) {
      if (!options.dir || path.basename(options.dir) !== 'client') return
      for (const fileName of Object.keys(bundle)) {
        if (!/\.(js|css|svg|json)$/.test(fileName)) continue
        const file = path.join(options.dir, fileName)
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

export default defineConfig({
  plugins: [reactRouter(), precompressAssets()],
  resolve: { alias: { '~': path.resolve(import.meta.dirname, 'app') } },
  build: { assetsInlineLimit: 0 },
})
