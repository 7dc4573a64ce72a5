/**
 * `npm run import:legacy`: brings the old site's events, articles, photos, videos and products
 * into this site, from the old backend's REST API or from a folder of exported documents and
 * files. Safe to run again: what was imported before is skipped. Run it with the same settings
 * as the server (DATA_DIR, DATABASE_URL, STORAGE_DRIVER and S3_*). See the README's "Import from
 * the old site" and docs/decisions/016-legacy-import.md.
 */
import fs from 'node:fs'
import path from 'node:path'
import { parseArgs } from 'node:util'
import {
  closingMessage,
  countImportedVideosInConversion,
  DEFAULT_COLLECTIONS,
  importLegacySite,
  type ImportReporter,
} from '../app/modules/legacy-import/legacy-import.server'
import {
  folderSource,
  LegacyBackendError,
  restSource,
  type LegacySource,
} from '../app/modules/legacy-import/legacy-source.server'
import { hasSiteSettings } from '../app/modules/settings/settings.queries.server'
import { db } from '../app/platform/db.server'
import { requestVideoRun, videoWorkIdle } from '../app/platform/media/video-conversion.server'
import { migrateToLatest } from '../db/migrate.server'

const USAGE = `Usage:
  npm run import:legacy -- --endpoint <url> --project <id> --database <id> --content-collection <id>
                           [--key <api key>] [--content-bucket <id>]
  npm run import:legacy -- --from-folder <dir> [--content-collection <name>]
Both also take --events-collection (default ${DEFAULT_COLLECTIONS.events}) and --marketplace-collection (default ${DEFAULT_COLLECTIONS.marketplace}).
The API key is better given in the environment variable LEGACY_API_KEY than with --key, which
other users of the machine can see in the process list.`

class UsageError extends Error {}

/** Prints progress on one line that a terminal overwrites; elsewhere (a log file) every 10th document. */
function consoleReporter(out: NodeJS.WriteStream = process.stdout): ImportReporter {
  let pending = ''
  return {
    progress(collection, done, total) {
      const text = `${collection}: ${done}/${total}`
      if (out.isTTY) {
        pending = done < total ? text : ''
        out.write(`\r\x1b[K${text}${done < total ? '' : '\n'}`)
      } else if (done === total || (done > 0 && done % 10 === 0)) {
        out.write(`${text}\n`)
      }
    },
    line(text) {
      if (out.isTTY && pending) out.write('\r\x1b[K')
      out.write(`${text}\n`)
      if (out.isTTY && pending) out.write(pending)
    },
  }
}

function sourceFrom(values: Record<string, string | undefined>): { source: LegacySource; content: string } {
  if (values['from-folder']) {
    const remote = ['endpoint', 'project', 'key', 'database', 'content-bucket'].filter((name) => values[name])
    if (remote.length > 0) throw new UsageError(`--from-folder reads no backend: leave out --${remote.join(', --')}.\n${USAGE}`)
    const dir = values['from-folder']
    return { source: folderSource(dir), content: values['content-collection'] ?? guessContentCollection(dir, values) }
  }
  const key = values.key ?? process.env.LEGACY_API_KEY
  const missing = ['endpoint', 'project', 'database', 'content-collection'].filter((name) => !values[name])
  if (!key) missing.push('key (or LEGACY_API_KEY)')
  if (missing.length > 0 || !key) throw new UsageError(`Missing --${missing.join(', --')}.\n${USAGE}`)
  return {
    source: restSource({
      endpoint: values.endpoint!,
      project: values.project!,
      key,
      database: values.database!,
      contentBucket: values['content-bucket'],
    }),
    content: values['content-collection']!,
  }
}

/** In a folder, the one JSON file that is neither the events nor the marketplace is the content collection. */
function guessContentCollection(dir: string, values: Record<string, string | undefined>): string {
  const known = [
    values['events-collection'] ?? DEFAULT_COLLECTIONS.events,
    values['marketplace-collection'] ?? DEFAULT_COLLECTIONS.marketplace,
  ]
  const others = fs
    .readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .map((name) => path.basename(name, '.json'))
    .filter((name) => !known.includes(name))
  if (others.length === 1) return others[0]
  if (others.length === 0) return DEFAULT_COLLECTIONS.content
  throw new UsageError(
    `Which of ${others.map((n) => `${n}.json`).join(', ')} holds the articles, photos and videos? Give --content-collection.`,
  )
}

async function run(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      endpoint: { type: 'string' },
      project: { type: 'string' },
      key: { type: 'string' },
      database: { type: 'string' },
      'content-collection': { type: 'string' },
      'content-bucket': { type: 'string' },
      'events-collection': { type: 'string' },
      'marketplace-collection': { type: 'string' },
      'from-folder': { type: 'string' },
      help: { type: 'boolean' },
    },
  })
  if (values.help) {
    console.log(USAGE)
    return
  }
  if (positionals.length > 0) throw new UsageError(`Unexpected ${positionals[0]}.\n${USAGE}`)
  const { source, content } = sourceFrom(values as Record<string, string | undefined>)

  await migrateToLatest()
  if (!(await hasSiteSettings())) {
    console.log(
      'Note: this site has not been started yet. On its first start it adds its demo content beside what is imported now; ' +
        'delete the demo items afterwards, or start the site once before importing.',
    )
  }
  console.log(`Importing from ${source.description}`)
  const summary = await importLegacySite(source, {
    collections: {
      events: values['events-collection'] ?? DEFAULT_COLLECTIONS.events,
      content,
      marketplace: values['marketplace-collection'] ?? DEFAULT_COLLECTIONS.marketplace,
    },
    reporter: consoleReporter(),
  })
  // This run's videos, and those of an earlier run that was stopped: converted here unless a running server has them.
  const waiting = await countImportedVideosInConversion()
  if (waiting > 0) {
    console.log(`Converting ${waiting} video${waiting === 1 ? '' : 's'} for the web (this may take a few minutes)...`)
    requestVideoRun()
    await videoWorkIdle()
  }
  console.log(closingMessage(summary, await countImportedVideosInConversion()))
}

try {
  await run(process.argv.slice(2))
  process.exitCode = 0
} catch (error) {
  if (error instanceof UsageError) {
    console.error(error.message)
    process.exitCode = 2
  } else if (error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS')) {
    console.error(`${error.message}\n${USAGE}`)
    process.exitCode = 2
  } else {
    // The old site's words; the message of a LegacyBackendError never holds the API key.
    console.error(
      `Migration failed: ${error instanceof LegacyBackendError ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    )
    process.exitCode = 1
  }
} finally {
  await videoWorkIdle()
  await db.destroy()
}
