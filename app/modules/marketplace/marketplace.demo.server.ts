import type { Db } from '~/platform/db.server'
import { loadSharp } from '~/platform/media/load-sharp.server'
import type { MediaChange } from '~/platform/media/media-change.server'
import type { ProductCategory } from './product-categories'
import { insertProduct } from './marketplace.service.server'

/** A square illustration: a coloured background with a simple drawing of the product (no photos of children). */
function artwork(background: string, drawing: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="800" viewBox="0 0 800 800">
    <rect width="800" height="800" fill="${background}"/>
    <circle cx="650" cy="150" r="210" fill="#ffffff" opacity="0.18"/>
    <ellipse cx="400" cy="690" rx="300" ry="40" fill="#000000" opacity="0.12"/>
    ${drawing}
  </svg>`
}

const DRAWINGS = {
  loaf: `<path d="M170 560 Q160 330 400 320 Q640 330 630 560 Z" fill="#b45309"/><path d="M230 420 q30 -40 60 0 M350 400 q30 -40 60 0 M470 420 q30 -40 60 0" stroke="#fde68a" stroke-width="18" fill="none" stroke-linecap="round"/><rect x="170" y="550" width="460" height="110" rx="20" fill="#92400e"/>`,
  cake: `<rect x="200" y="420" width="400" height="230" rx="24" fill="#fef3c7"/><rect x="200" y="400" width="400" height="70" rx="30" fill="#f9a8d4"/><circle cx="300" cy="380" r="24" fill="#dc2626"/><circle cx="400" cy="370" r="24" fill="#dc2626"/><circle cx="500" cy="380" r="24" fill="#dc2626"/><rect x="200" y="520" width="400" height="24" fill="#fbcfe8"/>`,
  shirt: `<path d="M270 220 L180 300 L240 380 L280 350 V650 H520 V350 L560 380 L620 300 L530 220 Q400 290 270 220Z" fill="#7c3aed"/><circle cx="360" cy="420" r="60" fill="#f472b6" opacity="0.85"/><circle cx="450" cy="500" r="70" fill="#38bdf8" opacity="0.8"/><circle cx="380" cy="560" r="40" fill="#facc15" opacity="0.85"/>`,
  hat: `<ellipse cx="400" cy="520" rx="300" ry="80" fill="#fde68a"/><path d="M250 520 Q250 300 400 300 Q550 300 550 520Z" fill="#fcd34d"/><rect x="252" y="450" width="296" height="40" fill="#0f766e"/><path d="M270 330 l260 0 M260 380 l280 0" stroke="#f59e0b" stroke-width="6" opacity="0.6"/>`,
  bracelet: `<circle cx="400" cy="430" r="190" fill="none" stroke="#78350f" stroke-width="6"/>${Array.from(
    { length: 18 },
    (_, i) => {
      const angle = (i / 18) * Math.PI * 2
      const colours = ['#f43f5e', '#f59e0b', '#10b981', '#3b82f6', '#a855f7', '#fde047']
      return `<circle cx="${(400 + 190 * Math.cos(angle)).toFixed(1)}" cy="${(430 + 190 * Math.sin(angle)).toFixed(1)}" r="30" fill="${colours[i % colours.length]}"/>`
    },
  ).join('')}`,
  soap: `<rect x="170" y="430" width="220" height="150" rx="40" fill="#c4b5fd"/><rect x="410" y="430" width="220" height="150" rx="40" fill="#a7f3d0"/><rect x="290" y="300" width="220" height="150" rx="40" fill="#fbcfe8"/><circle cx="250" cy="380" r="26" fill="#ffffff" opacity="0.8"/><circle cx="560" cy="370" r="34" fill="#ffffff" opacity="0.8"/><circle cx="600" cy="300" r="18" fill="#ffffff" opacity="0.8"/>`,
  ball: `<circle cx="400" cy="430" r="210" fill="#f8fafc"/><path d="M400 300 l70 50 -27 82 h-86 l-27 -82z" fill="#0f172a"/><path d="M400 220 v80 M470 350 l110 -30 M443 432 l60 90 M357 432 l-60 90 M330 350 l-110 -30" stroke="#0f172a" stroke-width="10"/>`,
}

const DEMO_PRODUCTS: {
  name: string
  description: string
  category: ProductCategory
  priceCents: number | null
  seller: string
  facebookLink?: string
  instagramLink?: string
  whatsappNumber?: string
  daysAgo: number
  pictures: { background: string; drawing: keyof typeof DRAWINGS }[]
}[] = [
  {
    name: 'Banana Bread Loaf',
    description:
      'Moist banana bread baked fresh every Friday with local bananas and a hint of nutmeg.\nOrder by Thursday evening; collect at the Saturday market.',
    category: 'general',
    priceCents: 1_500,
    seller: 'Keisha',
    whatsappNumber: '12685550121',
    daysAgo: 1,
    pictures: [{ background: '#fef3c7', drawing: 'loaf' }],
  },
  {
    name: 'Tie-dye T-shirts',
    description:
      'Hand-dyed cotton T-shirts in children\u2019s and adult sizes. Every shirt is one of a kind.\nSee more colours on our page: https://www.instagram.com/',
    category: 'clothing',
    priceCents: 2_000,
    seller: 'Bright Threads',
    instagramLink: 'https://www.instagram.com/',
    daysAgo: 3,
    pictures: [
      { background: '#e0e7ff', drawing: 'shirt' },
      { background: '#fce7f3', drawing: 'shirt' },
    ],
  },
  {
    name: 'Beaded Bracelets',
    description: 'Colourful bracelets made from glass beads and seeds, threaded by hand. Custom colours on request.',
    category: 'crafts',
    priceCents: 850,
    seller: 'Aaliyah',
    whatsappNumber: '12685550134',
    daysAgo: 6,
    pictures: [
      { background: '#ecfccb', drawing: 'bracelet' },
      { background: '#fef9c3', drawing: 'bracelet' },
      { background: '#cffafe', drawing: 'bracelet' },
    ],
  },
  {
    name: 'Handmade Soap Set',
    description: 'Three bars of gentle soap made with coconut oil, aloe and lemongrass. Wrapped in recycled paper.',
    category: 'crafts',
    priceCents: 1_200,
    seller: 'Fresh & Clean Soaps',
    facebookLink: 'https://www.facebook.com/',
    daysAgo: 9,
    pictures: [{ background: '#f5f3ff', drawing: 'soap' }],
  },
  {
    name: 'Straw Beach Hat',
    description: 'A wide-brimmed hat woven from local straw with a teal band. Keeps the sun off at the beach or in the garden.',
    category: 'clothing',
    priceCents: 2_500,
    seller: 'Marcus',
    daysAgo: 12,
    pictures: [{ background: '#ccfbf1', drawing: 'hat' }],
  },
  {
    name: 'Maths and Reading Tutoring',
    description:
      'Homework help in maths and reading for primary school children, after school on weekdays.\nAsk for a first session free of charge.',
    category: 'general',
    priceCents: null,
    seller: 'Grace',
    whatsappNumber: '12685550157',
    daysAgo: 15,
    // A service has no picture: the card shows the 400x400 placeholder, as the old site did.
    pictures: [],
  },
  {
    name: 'Football Coaching for Kids',
    description: 'Saturday morning football sessions for ages 6 to 10: passing, teamwork and fun. Price on request.',
    category: 'general',
    priceCents: null,
    seller: 'Coach Jay',
    facebookLink: 'https://www.facebook.com/',
    whatsappNumber: '12685550168',
    daysAgo: 20,
    pictures: [{ background: '#dcfce7', drawing: 'ball' }],
  },
  {
    name: 'Coconut Sugar Cake',
    description: 'A traditional sweet made with grated coconut and sugar, in pink and white. Sold in bags of six.',
    category: 'general',
    priceCents: 500,
    seller: 'Sweet Treats by Tia',
    daysAgo: 24,
    pictures: [{ background: '#fdf2f8', drawing: 'cake' }],
  },
]

/** Adds the demo products to a new site (inside the seed's media transaction). */
export async function seedMarketplace(trx: Db, media: MediaChange): Promise<void> {
  for (const demo of DEMO_PRODUCTS) {
    const images = []
    for (const picture of demo.pictures) {
      const png = await (
        await loadSharp()
      )(Buffer.from(artwork(picture.background, DRAWINGS[picture.drawing])))
        .png()
        .toBuffer()
      images.push(await media.storeImage(new Blob([new Uint8Array(png)]), 'product'))
    }
    const createdAt = new Date(Date.now() - demo.daysAgo * 86_400_000).toISOString()
    await insertProduct(
      trx,
      media,
      {
        name: demo.name,
        description: demo.description,
        category: demo.category,
        price: demo.priceCents,
        seller: demo.seller,
        facebookLink: demo.facebookLink ?? '',
        instagramLink: demo.instagramLink ?? '',
        whatsappNumber: demo.whatsappNumber ?? '',
      },
      images,
      createdAt,
    )
  }
}
