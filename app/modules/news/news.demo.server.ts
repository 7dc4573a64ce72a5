import type { Db } from '~/platform/db.server'
import { loadSharp } from '~/platform/media/load-sharp.server'
import type { MediaChange } from '~/platform/media/media-change.server'
import { insertArticle } from './news.service.server'

/** Illustrations drawn for the demo (no photos of real people); rasterised and stored like any upload. The gallery shows some too. */
export const DEMO_ARTWORK = {
  distribution: `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="750" viewBox="0 0 1200 750">
    <defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#5b21b6"/><stop offset="1" stop-color="#c4b5fd"/></linearGradient></defs>
    <rect width="1200" height="750" fill="url(#sky)"/>
    <circle cx="960" cy="170" r="90" fill="#fde047"/>
    <path d="M0 520 Q300 430 600 510 T1200 480 V750 H0Z" fill="#4d7c0f"/>
    <rect x="250" y="470" width="700" height="40" rx="8" fill="#78350f"/>
    <rect x="290" y="510" width="24" height="140" fill="#78350f"/><rect x="886" y="510" width="24" height="140" fill="#78350f"/>
    <rect x="300" y="380" width="120" height="90" rx="6" fill="#f59e0b"/><rect x="440" y="400" width="100" height="70" rx="6" fill="#fb923c"/>
    <path d="M580 470 l30 -110 h80 l30 110z" fill="#f5f5f4"/><rect x="760" y="390" width="150" height="80" rx="6" fill="#ef4444"/>
    <g fill="#2e1065"><circle cx="180" cy="560" r="34"/><rect x="146" y="596" width="68" height="120" rx="30"/>
    <circle cx="1040" cy="550" r="34"/><rect x="1006" y="586" width="68" height="130" rx="30"/>
    <circle cx="1120" cy="590" r="26"/><rect x="1094" y="618" width="52" height="98" rx="24"/></g>
  </svg>`,
  survivors: `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="750" viewBox="0 0 1200 750">
    <defs><radialGradient id="glow" cx="0.5" cy="0.4" r="0.8"><stop offset="0" stop-color="#fce7f3"/><stop offset="1" stop-color="#a855f7"/></radialGradient></defs>
    <rect width="1200" height="750" fill="url(#glow)"/>
    <path d="M600 120 C520 120 500 220 560 320 L420 560 L490 600 L600 400 L710 600 L780 560 L640 320 C700 220 680 120 600 120Z M600 180 C640 180 640 240 600 290 C560 240 560 180 600 180Z" fill="#ec4899"/>
    <g fill="#4c1d95">
      <circle cx="200" cy="520" r="40"/><rect x="160" y="562" width="80" height="160" rx="36"/>
      <circle cx="330" cy="540" r="36"/><rect x="294" y="578" width="72" height="150" rx="32"/>
      <circle cx="870" cy="540" r="36"/><rect x="834" y="578" width="72" height="150" rx="32"/>
      <circle cx="1000" cy="520" r="40"/><rect x="960" y="562" width="80" height="160" rx="36"/>
    </g>
    <path d="M236 620 Q265 600 298 620 M904 620 Q932 600 964 620" stroke="#4c1d95" stroke-width="14" fill="none" stroke-linecap="round"/>
  </svg>`,
  youth: `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="750" viewBox="0 0 1200 750">
    <rect width="1200" height="750" fill="#0f766e"/>
    <circle cx="180" cy="140" r="70" fill="#fde047"/>
    <rect x="200" y="300" width="800" height="330" rx="12" fill="#f8fafc"/>
    <g><path d="M170 300 h860 l-40 -110 h-780z" fill="#7c3aed"/>
    <path d="M250 190 h110 l-20 110 h-110z M470 190 h110 l-5 110 h-110z M690 190 h110 l10 110 h-110z M910 190 h80 l40 110 h-100z" fill="#fbbf24"/></g>
    <rect x="260" y="360" width="150" height="110" rx="10" fill="#fb7185"/><rect x="450" y="380" width="130" height="90" rx="45" fill="#a3e635"/>
    <rect x="620" y="350" width="120" height="120" rx="10" fill="#38bdf8"/><rect x="780" y="370" width="160" height="100" rx="10" fill="#f97316"/>
    <rect x="200" y="470" width="800" height="30" fill="#cbd5e1"/>
    <g fill="#1e1b4b"><circle cx="120" cy="560" r="30"/><rect x="92" y="592" width="56" height="110" rx="26"/>
    <circle cx="1090" cy="570" r="28"/><rect x="1064" y="600" width="52" height="100" rx="24"/></g>
  </svg>`,
}

const DEMO_ARTICLES = [
  {
    title: 'Monthly Food and Clothing Distribution',
    daysAgo: 3,
    artwork: DEMO_ARTWORK.distribution,
    imageAlt: 'Illustration of a distribution table with boxes of food and bags of clothing under a bright sun',
    content: `On the last Saturday of every month our volunteers open the doors for the food and clothing distribution. Each month more than 12 families leave with groceries, toiletries and clothes for the children.

## How you can help

- Bring non-perishable food or clean clothing in good condition.
- Join the volunteer team on distribution morning.
- Support the work with a gift through our Support page.`,
  },
  {
    title: 'Cancer Survivors Support Group Meets Monthly',
    daysAgo: 17,
    artwork: DEMO_ARTWORK.survivors,
    imageAlt: 'Illustration of a pink ribbon with people standing together on either side',
    content: `Our cancer survivor support community now counts more than 40 survivors. Members meet to share their stories, encourage one another and help with transport to treatment when it is needed.

Family members and caregivers are welcome too. Nobody should face cancer alone.`,
  },
  {
    title: 'Young Entrepreneurs Show Their Skills',
    daysAgo: 40,
    artwork: DEMO_ARTWORK.youth,
    imageAlt: 'Illustration of a colourful market stall with goods on display',
    content: `Young people aged 8 to 17 in our entrepreneurship training programme presented their work this month: baked goods, handmade soap and jewellery, fashion and graphic design.

## What the programme teaches

1. Turning a skill into a small business.
2. Pricing, saving and keeping simple accounts.
3. Presenting products with confidence.

You can find their products in our Marketplace.`,
  },
]

/** Adds the demo articles, each with its illustration, to a new site (inside the seed's media transaction). */
export async function seedNews(trx: Db, media: MediaChange): Promise<void> {
  for (const demo of DEMO_ARTICLES) {
    const png = await (await loadSharp())(Buffer.from(demo.artwork)).png().toBuffer()
    const image = await media.storeImage(new Blob([new Uint8Array(png)]), 'article')
    const imageId = await media.attach(trx, image, demo.imageAlt)
    const createdAt = new Date(Date.now() - demo.daysAgo * 86_400_000).toISOString()
    await insertArticle(trx, { title: demo.title, content: demo.content, createdAt }, imageId)
  }
}
