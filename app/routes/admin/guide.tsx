import type { Route } from './+types/guide'
import guideText from '../../../docs/guide/README.md?raw'
import { requireAccess } from '~/platform/auth.server'
import { renderGuideMarkdown } from '~/platform/markdown'

export const meta: Route.MetaFunction = () => [{ title: 'Guide | Site admin' }]

// The screenshots, as the build names them (hashed, cached for good).
const screenshots = import.meta.glob<string>('../../../docs/guide/*.webp', { eager: true, query: '?url', import: 'default' })
const images = Object.fromEntries(Object.entries(screenshots).map(([file, url]) => [file.split('/').pop()!, url]))

/** docs/guide/README.md, the volunteers' guide, inside the admin area: every role may read it. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAccess({ request, context }, 'guide')
  // The title is the page's h1; the rest is the guide.
  const [title, ...rest] = guideText.split('\n')
  return { title: title.replace(/^#\s*/, ''), html: renderGuideMarkdown(rest.join('\n'), images) }
}

export default function Guide({ loaderData }: Route.ComponentProps) {
  return (
    <div className="stack guide">
      <h1>{loaderData.title}</h1>
      <div className="markdown-text" dangerouslySetInnerHTML={{ __html: loaderData.html }} />
    </div>
  )
}
