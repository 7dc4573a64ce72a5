import fs from 'node:fs'
import path from 'node:path'
import { DEMO_ARTWORK } from '~/modules/news/news.demo.server'
import type { Db } from '~/platform/db.server'
import { loadSharp } from '~/platform/media/load-sharp.server'
import type { MediaChange } from '~/platform/media/media-change.server'
import { insertVideoCopy } from '~/platform/media/videos.server'
import type { MediaCategory } from './media-categories'
import { insertMediaItem } from './gallery.service.server'

/** Photographs and the video from Debian's mate-backgrounds (see db/demo-media/LICENSE.md). */
const DEMO_MEDIA_DIR = path.resolve('db/demo-media')

type DemoFile = { photo: string } | { artwork: string } | { video: string }

const DEMO_ITEMS: {
  title: string
  description: string
  category: MediaCategory
  featured: boolean
  daysAgo: number
  file: DemoFile
}[] = [
  {
    title: 'Beach Clean-up Day',
    description: 'Families and young volunteers spent a Saturday morning clearing the beach of plastic and litter.',
    category: 'Events',
    featured: true,
    daysAgo: 2,
    file: { video: 'beach-clean-up.mp4' },
  },
  {
    title: 'Monthly Distribution Morning',
    description: 'Tables of food and clothing ready for the families who come on the last Saturday of the month.',
    category: 'Events',
    featured: true,
    daysAgo: 5,
    file: { artwork: DEMO_ARTWORK.distribution },
  },
  {
    title: 'Community Garden',
    description: 'The community garden in bloom: neighbours grow vegetables and flowers together and share the harvest.',
    category: 'Community',
    featured: true,
    daysAgo: 9,
    file: { photo: 'garden.jpg' },
  },
  {
    title: 'Flowers of Hope',
    description: 'Yellow flowers planted by the cancer survivor support group, one for every member.',
    category: 'Health',
    featured: true,
    daysAgo: 14,
    file: { photo: 'yellow-flower.jpg' },
  },
  {
    title: 'Nature Class: Garden Insects',
    description: 'Children in the after-school programme learned why ladybirds are a gardener\u2019s friends.',
    category: 'Education',
    featured: false,
    daysAgo: 20,
    file: { photo: 'lady-bird.jpg' },
  },
  {
    title: 'Young Entrepreneurs Market',
    description: 'Young people from the entrepreneurship programme showed their products at the market stall.',
    category: 'Projects',
    featured: false,
    daysAgo: 27,
    file: { artwork: DEMO_ARTWORK.youth },
  },
  {
    title: 'Youth Farming Project',
    description: 'The field where the youth farming project grows its first crops.',
    category: 'Projects',
    featured: false,
    daysAgo: 33,
    file: { photo: 'green-meadow.jpg' },
  },
  {
    title: 'Retreat by the Dunes',
    description: 'A quiet afternoon by the dunes for volunteers and survivors at the annual retreat.',
    category: 'Community',
    featured: false,
    daysAgo: 45,
    file: { photo: 'dune.jpg' },
  },
]

async function fileOf(trx: Db, media: MediaChange, title: string, file: DemoFile) {
  if ('video' in file) {
    const video = await insertVideoCopy(trx, path.join(DEMO_MEDIA_DIR, file.video), file.video)
    return { kind: 'video' as const, videoId: video.id }
  }
  const source =
    'photo' in file
      ? fs.readFileSync(path.join(DEMO_MEDIA_DIR, file.photo))
      : await (await loadSharp())(Buffer.from(file.artwork)).png().toBuffer()
  const image = await media.storeImage(new Blob([new Uint8Array(source)]), 'gallery')
  return { kind: 'photo' as const, imageId: await media.attach(trx, image, title) }
}

/** Adds the demo photos and video to a new site (inside the seed's media transaction); the video is converted in the background. */
export async function seedGallery(trx: Db, media: MediaChange): Promise<void> {
  for (const demo of DEMO_ITEMS) {
    const file = await fileOf(trx, media, demo.title, demo.file)
    const createdAt = new Date(Date.now() - demo.daysAgo * 86_400_000).toISOString()
    await insertMediaItem(trx, demo, file, createdAt)
  }
}
