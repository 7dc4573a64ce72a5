import { spawn } from 'node:child_process'
import { once } from 'node:events'
import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import sharp from 'sharp'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { GPS_IFD_TAG } from '../../../tests/fixtures/images'
import { buildLegacyExport, PRODUCT_IMAGE_COLOURS } from '../../../tests/fixtures/old-site-export'
import { runScript } from '../../../tests/setup/run-script'
import { emptyUploadsBeforeEach, storedFiles } from '../../../tests/setup/uploads'
import { db } from '~/platform/db.server'
import { env } from '~/platform/env.server'
import { newLeaseToken } from '~/platform/lease-holder.server'
import type { ImageVariant } from '~/platform/media/image-types'
import { videoWorkIdle } from '~/platform/media/video-conversion.server'
import { storage } from '~/platform/storage/index.server'
import { listAuditEventsForAdmin } from '~/modules/audit/audit.queries.server'
import { searchSite } from '~/modules/search/search.queries.server'
import { importLegacySite, type ImportReporter } from './legacy-import.server'
import { folderSource, LegacyBackendError, restSource } from './legacy-source.server'

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'legacy-import-'))
let exportDir: string
beforeAll(async () => {
  exportDir = await buildLegacyExport(path.join(work, 'export'))
  return () => fs.rmSync(work, { recursive: true, force: true })
})
emptyUploadsBeforeEach()
afterEach(() => videoWorkIdle())

/** The old site kept its articles, photos and videos in one collection; in this export it is called 'articles'. */
const collections = { content: 'articles' }

function recorder(): ImportReporter & { lines: string[]; steps: string[] } {
  const lines: string[] = []
  const steps: string[] = []
  return {
    lines,
    steps,
    line: (text) => void lines.push(text),
    progress: (collection, done, total) => void steps.push(`${collection}: ${done}/${total}`),
  }
}

const SKIPPED_LINES = [
  '  skipped events/65f1a0c2e4b7d10a9e03: no title',
  "  skipped events/65f1a0c2e4b7d10a9e04: start date 'soon' is not a date",
  '  skipped articles/6601b3f0a1c2d3e4f507: no title',
  expect.stringMatching(
    /^ {2}skipped articles\/6601b3f0a1c2d3e4f508: file site-media\/6601b3f0a1c2d3e4f5f8: (not in the export's files folder|not found on the old backend \(404\))$/,
  ),
  '  skipped articles/#9: not a document (a JSON object)',
  expect.stringMatching(
    /^ {2}skipped marketplace\/6610c4d5e6f7a8b9c003: file marketplace-images\/6610c4d5e6f7a8b9cf32: (not in the export's files folder|not found on the old backend \(404\))$/,
  ),
  '  skipped marketplace/6610c4d5e6f7a8b9c004: Name and description are required',
]

async function variantsOf(imageId: string): Promise<ImageVariant[]> {
  const row = await db.selectFrom('images').select('variants').where('id', '=', imageId).executeTakeFirstOrThrow()
  return JSON.parse(row.variants) as ImageVariant[]
}

async function storedBytes(key: string): Promise<Buffer> {
  const object = await storage.get(key)
  return Buffer.from(await new Response(object!.body).arrayBuffer())
}

/** Which of the fixture's product images this is: the one whose colour is nearest to the stored JPEG's. */
async function productImageFileOf(imageId: string): Promise<string> {
  const jpeg = (await variantsOf(imageId)).filter((v) => v.format === 'jpeg').at(-1)!
  const { dominant } = await sharp(await storedBytes(jpeg.key)).stats()
  const distance = (hex: string) =>
    [1, 3, 5].reduce(
      (sum, i, c) => sum + Math.abs(parseInt(hex.slice(i, i + 2), 16) - [dominant.r, dominant.g, dominant.b][c]),
      0,
    )
  const [nearest] = Object.entries(PRODUCT_IMAGE_COLOURS).sort(([, a], [, b]) => distance(a) - distance(b))
  expect(distance(nearest[1])).toBeLessThan(60)
  return nearest[0]
}

/** Every file of the site's storage is one a row refers to: nothing was left behind by a skipped document. */
async function expectOnlyReferencedFiles() {
  const images = await db.selectFrom('images').select('variants').execute()
  const videos = await db.selectFrom('videos').select('videoKey').execute()
  const referenced = [
    ...images.flatMap((row) => (JSON.parse(row.variants) as ImageVariant[]).map((v) => v.key)),
    ...videos.flatMap((row) => (row.videoKey ? [row.videoKey] : [])),
  ]
  expect(storedFiles()).toEqual(referenced.map((key) => path.basename(key)).sort())
}

async function tableCounts() {
  const count = async (table: 'articles' | 'mediaItems' | 'events' | 'products' | 'images' | 'videos' | 'legacyImports') =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    )
  return {
    articles: await count('articles'),
    mediaItems: await count('mediaItems'),
    events: await count('events'),
    products: await count('products'),
    images: await count('images'),
    videos: await count('videos'),
    legacyImports: await count('legacyImports'),
  }
}

/** What the fixture's well-formed documents must have become. */
async function expectTheOldSiteHere() {
  const articles = await db
    .selectFrom('articles')
    .select(['title', 'content', 'imageId', 'createdAt'])
    .orderBy('createdAt', 'desc')
    .execute()
  expect(articles).toEqual([
    {
      title: 'Back to School Drive',
      content: 'Thanks to your gifts, **120 children** started the school year with new bags and books.',
      imageId: expect.any(String),
      createdAt: '2024-08-19T15:30:00.000Z',
    },
    // No type, and 'News' is no gallery category: an article.
    { title: 'A Word of Thanks', content: expect.any(String), imageId: null, createdAt: '2024-06-02T11:00:00.000Z' },
    // No type and a gallery category, but no picture at all: kept as an article.
    { title: 'Homework Club Opens', content: expect.any(String), imageId: null, createdAt: '2024-05-10T09:15:00.000Z' },
  ])
  // The site's search finds what was imported.
  expect((await searchSite('school children', 1)).results.map((r) => r.href)).toContain('/news/back-to-school-drive')
  expect((await searchSite('banana bread', 1)).results.map((r) => r.kind)).toContain('product')
  // The article's photo was re-encoded like an upload: WebP and JPEG, without its GPS position.
  const articleImage = await variantsOf(articles[0].imageId!)
  expect(new Set(articleImage.map((v) => v.format))).toEqual(new Set(['webp', 'jpeg']))
  for (const variant of articleImage) expect((await storedBytes(variant.key)).includes(GPS_IFD_TAG)).toBe(false)

  const media = await db
    .selectFrom('mediaItems')
    .leftJoin('videos', 'videos.id', 'mediaItems.videoId')
    .select([
      'mediaItems.title',
      'kind',
      'category',
      'featured',
      'description',
      'mediaItems.createdAt',
      'imageId',
      'videos.status',
    ])
    .orderBy('mediaItems.createdAt', 'desc')
    .execute()
  expect(media).toEqual([
    {
      title: 'Beach Clean-up...',
      kind: 'video',
      category: 'Community',
      featured: 1,
      description: 'Young volunteers cleared the beach of plastic.',
      createdAt: '2024-11-03T10:20:00.000Z',
      imageId: null,
      status: 'ready',
    },
    // No type, category Health: a photo ('Fix Content Types').
    {
      title: 'Walk for Life',
      kind: 'photo',
      category: 'Health',
      featured: 0,
      description: 'Survivors and supporters walked five miles along the coast.',
      createdAt: '2024-10-12T13:45:00.000Z',
      imageId: expect.any(String),
      status: null,
    },
    // Ending in the one character '…' rather than three dots: featured all the same.
    {
      title: 'Distribution Day…',
      kind: 'photo',
      category: 'Events',
      featured: 1,
      description: 'Tables ready for the families on the last Saturday of September.',
      createdAt: '2024-09-28T17:05:00.000Z',
      imageId: expect.any(String),
      status: null,
    },
  ])

  const events = await db
    .selectFrom('events')
    .select(['title', 'description', 'location', 'type', 'startsAt', 'endsAt', 'repeat', 'createdAt'])
    .orderBy('startsAt')
    .execute()
  expect(events).toEqual([
    {
      title: 'Monthly Food and Clothing Distribution',
      description: 'Food parcels and clothing for families in need. Volunteers welcome from 8 AM.',
      location: "Ministry Hall, St. John's",
      type: 'event',
      startsAt: '2025-03-29T13:00:00.000Z',
      endsAt: '2025-03-29T16:00:00.000Z',
      repeat: 'none',
      createdAt: '2025-03-01T14:02:11.512Z',
    },
    {
      title: 'Survivors Support Meeting',
      description: 'Monthly meeting of the cancer survivors support group.',
      location: '',
      type: 'meeting',
      startsAt: '2025-04-08T22:00:00.000Z',
      // Its end came before its start: left out.
      endsAt: null,
      repeat: 'none',
      createdAt: '2025-03-20T18:40:00.000Z',
    },
  ])

  const products = await db
    .selectFrom('products')
    .select(['id', 'name', 'category', 'priceCents', 'seller', 'facebookLink', 'instagramLink', 'whatsappNumber', 'createdAt'])
    .orderBy('createdAt')
    .execute()
  expect(products.map(({ id: _, ...product }) => product)).toEqual([
    {
      name: 'Banana Bread',
      // Missing in the old data: the default category.
      category: 'general',
      priceCents: 1250,
      seller: '',
      facebookLink: 'https://www.facebook.com/keishasbakes',
      instagramLink: '',
      // A local number gets the site's country code.
      whatsappNumber: '12685550134',
      createdAt: '2025-01-15T16:00:00.000Z',
    },
    {
      name: 'Beaded Bracelet',
      category: 'crafts',
      priceCents: null,
      seller: '',
      facebookLink: '',
      // Not an Instagram address: dropped.
      instagramLink: '',
      // Typed as it is dialled in Antigua, (268) 555-0199: +1 268, not +268.
      whatsappNumber: '12685550199',
      createdAt: '2025-02-01T12:00:00.000Z',
    },
  ])
  const imagesOf = async (productId: string) => {
    const rows = await db
      .selectFrom('productImages')
      .select('imageId')
      .where('productId', '=', productId)
      .orderBy('position')
      .execute()
    return Promise.all(rows.map((row) => productImageFileOf(row.imageId)))
  }
  // In the order of imageUrls; the unreadable imageUrls of the bracelet fell back to its imageUrl.
  expect(await imagesOf(products[0].id)).toEqual(['6610c4d5e6f7a8b9cf11', '6610c4d5e6f7a8b9cf12'])
  expect(await imagesOf(products[1].id)).toEqual(['6610c4d5e6f7a8b9cf21'])

  // Article 1, photos 2, products 3, the video's poster 1; nothing of the skipped documents.
  expect(await tableCounts()).toEqual({
    articles: 3,
    mediaItems: 3,
    events: 2,
    products: 2,
    images: 7,
    videos: 1,
    legacyImports: 10,
  })
  await expectOnlyReferencedFiles()
}

describe('importing an exported folder of the old site', () => {
  it('puts every well-formed record in its place and reports the others, one line each', async () => {
    const reporter = recorder()
    const summary = await importLegacySite(folderSource(exportDir), { collections, reporter })
    await videoWorkIdle()

    expect(summary).toMatchObject({ updated: 10, skipped: 7, alreadyImported: 0, videos: 1 })
    expect(summary.message).toBe('Migration complete. Updated 10 items, skipped 7 items.')
    expect(reporter.lines.filter((line) => line.startsWith('  skipped'))).toEqual(SKIPPED_LINES)
    expect(reporter.lines).toEqual(
      expect.arrayContaining([
        '  note events/65f1a0c2e4b7d10a9e02: the end is before the start; left out',
        '  note marketplace/6610c4d5e6f7a8b9c002: imageUrls is not a JSON list; used imageUrl instead',
        "  note marketplace/6610c4d5e6f7a8b9c002: instagramLink 'https://example.com/bracelets' is not an address on Instagram; dropped",
        'events: 2 imported, 0 imported before, 2 skipped as malformed',
        'articles: 6 imported, 0 imported before, 3 skipped as malformed',
        'marketplace: 2 imported, 0 imported before, 2 skipped as malformed',
      ]),
    )
    expect(reporter.steps).toEqual(expect.arrayContaining(['events: 0/4', 'events: 4/4', 'articles: 9/9', 'marketplace: 4/4']))
    await expectTheOldSiteHere()
    // One audit entry for the run, by the command line, with its counts.
    expect((await listAuditEventsForAdmin({})).events).toEqual([
      expect.objectContaining({
        action: 'import',
        actorUserId: null,
        clientAddress: 'command line',
        detail: { imported: 10, importedBefore: 0, malformed: 7, videos: 1 },
      }),
    ])
  })

  it('imports nothing the second time and skips everything', async () => {
    await importLegacySite(folderSource(exportDir), { collections })
    await videoWorkIdle()
    const before = { counts: await tableCounts(), files: storedFiles() }

    const reporter = recorder()
    const again = await importLegacySite(folderSource(exportDir), { collections, reporter })
    expect(again).toMatchObject({ updated: 0, skipped: 17, alreadyImported: 10, videos: 0 })
    expect(again.message).toBe('Migration complete. Updated 0 items, skipped 17 items.')
    // The malformed ones are still malformed, and said so again.
    expect(reporter.lines.filter((line) => line.startsWith('  skipped'))).toEqual(SKIPPED_LINES)
    expect({ counts: await tableCounts(), files: storedFiles() }).toEqual(before)
  })
})

interface OldBackend {
  endpoint: string
  requests: { path: string; queries: string[]; project?: string; key?: string }[]
  close(): Promise<void>
}

/**
 * A small server that answers like the old backend's REST API from the exported folder: lists
 * honour `limit` and `offset` (JSON queries), files are served from `files/<bucket>/<fileId>`,
 * and a request without the right project and key gets Appwrite's 401.
 */
async function startOldBackend(dir: string): Promise<OldBackend> {
  const requests: OldBackend['requests'] = []
  const json = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))
  }
  const server = http.createServer((req, res) => {
    const url = new URL(req.url!, 'http://backend.test')
    const queries = url.searchParams.getAll('queries[]')
    const project = req.headers['x-appwrite-project'] as string | undefined
    const key = req.headers['x-appwrite-key'] as string | undefined
    requests.push({ path: url.pathname, queries, project, key })
    if (project !== 'ministry-site' || key !== 'the-right-key') {
      return json(res, 401, {
        message: 'The current user is not authorized to perform the requested action.',
        code: 401,
        type: 'general_unauthorized_scope',
      })
    }
    const list = /^\/v1\/databases\/ministry\/collections\/([^/]+)\/documents$/.exec(url.pathname)
    if (list) {
      const file = path.join(dir, `${decodeURIComponent(list[1])}.json`)
      if (!fs.existsSync(file))
        return json(res, 404, { message: 'Collection with the requested ID could not be found.', code: 404 })
      const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as unknown[] | { documents: unknown[] }
      const documents = Array.isArray(parsed) ? parsed : parsed.documents
      const query = Object.fromEntries(
        queries.map((q) => JSON.parse(q) as { method: string; values: number[] }).map((q) => [q.method, q.values[0]]),
      )
      const offset = query.offset ?? 0
      return json(res, 200, { total: documents.length, documents: documents.slice(offset, offset + (query.limit ?? 25)) })
    }
    const view = /^\/v1\/storage\/buckets\/([^/]+)\/files\/([^/]+)\/view$/.exec(url.pathname)
    const file = view && path.join(dir, 'files', view[1], view[2])
    if (file && fs.existsSync(file)) {
      res.writeHead(200, { 'content-type': 'application/octet-stream' })
      return fs.createReadStream(file).pipe(res)
    }
    json(res, 404, { message: 'The requested file could not be found.', code: 404, type: 'storage_file_not_found' })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    endpoint: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}

describe("importing from the old backend's REST API", () => {
  it('lists the documents page by page and reads the files from the configured endpoint', async () => {
    const backend = await startOldBackend(exportDir)
    try {
      const source = restSource({
        endpoint: backend.endpoint,
        project: 'ministry-site',
        key: 'the-right-key',
        database: 'ministry',
        pageSize: 5,
      })
      const reporter = recorder()
      const summary = await importLegacySite(source, { collections, reporter })
      await videoWorkIdle()
      expect(summary.message).toBe('Migration complete. Updated 10 items, skipped 7 items.')
      expect(reporter.lines.filter((line) => line.startsWith('  skipped'))).toEqual(SKIPPED_LINES)
      await expectTheOldSiteHere()

      // Nine documents in the content collection: two pages of at most five.
      const contentPages = backend.requests.filter((r) => r.path === '/v1/databases/ministry/collections/articles/documents')
      expect(contentPages.map((r) => r.queries)).toEqual([
        ['{"method":"limit","values":[5]}', '{"method":"offset","values":[0]}'],
        ['{"method":"limit","values":[5]}', '{"method":"offset","values":[5]}'],
      ])
      // The stored URLs name the backend's public host; the files came from the endpoint given.
      expect(backend.requests.map((r) => r.path)).toContain('/v1/storage/buckets/site-media/files/6601b3f0a1c2d3e4f5f1/view')
      expect(backend.requests.every((r) => r.project === 'ministry-site' && r.key === 'the-right-key')).toBe(true)

      const again = await importLegacySite(source, { collections })
      expect(again.message).toBe('Migration complete. Updated 0 items, skipped 17 items.')
    } finally {
      await backend.close()
    }
  })

  it('stops at a wrong API key, without importing anything or showing the key', async () => {
    const backend = await startOldBackend(exportDir)
    try {
      const source = restSource({
        endpoint: backend.endpoint,
        project: 'ministry-site',
        key: 'a-wrong-key',
        database: 'ministry',
      })
      const failure = await importLegacySite(source, { collections }).catch((error: unknown) => error)
      expect(failure).toBeInstanceOf(LegacyBackendError)
      expect((failure as Error).message).toBe(
        'listing events: Authentication required (The current user is not authorized to perform the requested action.)',
      )
      expect(await tableCounts()).toEqual({
        articles: 0,
        mediaItems: 0,
        events: 0,
        products: 0,
        images: 0,
        videos: 0,
        legacyImports: 0,
      })
    } finally {
      await backend.close()
    }
  })
})

/** Runs `npm run import:legacy -- ...` against this test file's database. */
function importCommand(args: string[], extraEnv: Record<string, string> = {}) {
  return runScript('import-legacy', args, { env: { ...process.env, ...extraEnv } })
}

describe('npm run import:legacy', () => {
  it('prints progress, each skipped document and the old message', async () => {
    const run = await importCommand(['--from-folder', exportDir])
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    const lines = run.stdout.trimEnd().split('\n')
    expect(lines).toEqual(expect.arrayContaining(['events: 4/4', 'articles: 9/9', 'marketplace: 4/4', ...SKIPPED_LINES]))
    expect(lines).toContain('Converting 1 video for the web (this may take a few minutes)...')
    expect(lines.at(-1)).toBe('Migration complete. Updated 10 items, skipped 7 items.')
    expect(await tableCounts()).toMatchObject({ articles: 3, mediaItems: 3, events: 2, products: 2, legacyImports: 10 })
  }, 60_000)

  it('says at the end of a second run that an imported video is still being converted', async () => {
    await importLegacySite(folderSource(exportDir), { collections })
    await videoWorkIdle()
    // As when a running server has claimed the imported video and converts it.
    const leaseExpiresAt = new Date(Date.now() + 10 * 60_000).toISOString()
    await db.updateTable('videos').set({ status: 'processing', leaseToken: newLeaseToken(), leaseExpiresAt }).execute()

    const run = await importCommand(['--from-folder', exportDir])
    expect(run.code).toBe(0)
    expect(run.stdout.trimEnd().split('\n').at(-1)).toBe(
      'Migration complete. Updated 0 items, skipped 17 items. 1 video is still being converted; it will appear when ready.',
    )
  }, 60_000)

  it('converts on a second run an imported video that a killed first run left waiting', async () => {
    await importLegacySite(folderSource(exportDir), { collections })
    await videoWorkIdle()
    // What a run killed mid-conversion leaves: the original in the work folder, the video claimed by a process that is gone.
    const killed = spawn('sleep', ['60'], { stdio: 'ignore' })
    const leaseToken = newLeaseToken(killed.pid!)
    killed.kill('SIGKILL')
    await once(killed, 'exit')
    const video = await db.selectFrom('videos').select(['id', 'originalFormat']).executeTakeFirstOrThrow()
    const workDir = path.join(env.dataDir, 'video-work')
    fs.mkdirSync(workDir, { recursive: true })
    const original = path.join(workDir, `${video.id}.original.${video.originalFormat}`)
    fs.copyFileSync(path.join(exportDir, 'files/site-media/6601b3f0a1c2d3e4f5f6'), original)
    const claimedAt = new Date()
    await db
      .updateTable('videos')
      .set({
        status: 'processing',
        videoKey: null,
        posterImageId: null,
        nextAttemptAt: claimedAt.toISOString(),
        leaseToken,
        leaseExpiresAt: new Date(claimedAt.getTime() + 10 * 60_000).toISOString(),
      })
      .execute()

    const run = await importCommand(['--from-folder', exportDir])
    expect(run.code).toBe(0)
    const lines = run.stdout.trimEnd().split('\n')
    expect(lines).toContain('Converting 1 video for the web (this may take a few minutes)...')
    expect(lines.at(-1)).toBe('Migration complete. Updated 0 items, skipped 17 items.')
    expect(await db.selectFrom('videos').select('status').executeTakeFirstOrThrow()).toEqual({ status: 'ready' })
  }, 60_000)

  it('says why the backend refused, and never prints the API key', async () => {
    const backend = await startOldBackend(exportDir)
    try {
      const args = [
        '--endpoint',
        backend.endpoint,
        '--project',
        'ministry-site',
        '--database',
        'ministry',
        '--content-collection',
        'articles',
      ]
      const run = await importCommand(args, { LEGACY_API_KEY: 'a-secret-but-wrong-key' })
      expect(run.code).toBe(1)
      expect(run.stderr.trim()).toBe(
        'Migration failed: listing events: Authentication required (The current user is not authorized to perform the requested action.)',
      )
      expect(run.stdout + run.stderr).not.toContain('a-secret-but-wrong-key')
      expect(backend.requests[0].key).toBe('a-secret-but-wrong-key')
    } finally {
      await backend.close()
    }
  }, 60_000)
})
