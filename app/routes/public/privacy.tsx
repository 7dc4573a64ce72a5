import type { Route } from './+types/privacy'
import { editHandle, pageTextsTarget } from '~/components/admin-bar'
import { WITHOUT_SCRIPTS } from '~/components/page-scripts'
import { PageHero, TextSection } from '~/components/page-blocks'
import { getPublicPage } from '~/modules/pages/pages.queries.server'
import { pageMeta } from '~/platform/seo'

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: 'Privacy', description: args.loaderData?.content.hero.text ?? '' })

/** The admin bar's "Edit this page". */
export const handle = { ...editHandle(() => pageTextsTarget('privacy')), ...WITHOUT_SCRIPTS }

export async function loader() {
  return getPublicPage('privacy')
}

export default function Privacy({ loaderData }: Route.ComponentProps) {
  const { content } = loaderData
  return (
    <>
      <PageHero title={content.hero.title} text={content.hero.text} image={loaderData.heroImage} />
      <TextSection id="what-we-keep" heading={content.whatWeKeep.heading} text={content.whatWeKeep.text} />
      <TextSection id="your-choices" heading={content.yourChoices.heading} text={content.yourChoices.text} muted />
    </>
  )
}
