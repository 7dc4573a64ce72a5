import { Link } from 'react-router'
import type { Route } from './+types/impact'
import { editHandle, pageTextsTarget } from '~/components/admin-bar'
import { WITHOUT_SCRIPTS } from '~/components/page-scripts'
import { ImpactFigures, PageHero, TextSection } from '~/components/page-blocks'
import { getPublicPage } from '~/modules/pages/pages.queries.server'
import { siteSettingsFor } from '~/modules/settings/settings.context.server'
import { pageMeta } from '~/platform/seo'

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: 'Our Impact', description: args.loaderData?.content.hero.text ?? '' })

/** The admin bar's "Edit this page". */
export const handle = { ...editHandle(() => pageTextsTarget('impact')), ...WITHOUT_SCRIPTS }

export async function loader({ context }: Route.LoaderArgs) {
  const [page, { impactFigures }] = await Promise.all([getPublicPage('impact'), siteSettingsFor(context)])
  return { ...page, impactFigures }
}

export default function Impact({ loaderData }: Route.ComponentProps) {
  const { content, impactFigures } = loaderData
  return (
    <>
      <PageHero title={content.hero.title} text={content.hero.text} image={loaderData.heroImage} />

      <TextSection id="what-it-means" heading={content.intro.heading} text={content.intro.text}>
        <ImpactFigures figures={impactFigures} detailed />
      </TextSection>

      <TextSection id="next-chapter" heading={content.closing.heading} text={content.closing.text} muted>
        <div className="button-row">
          <Link to="/support" className="button">
            Support Our Mission
          </Link>
          <Link to="/services" className="button-secondary">
            Our Services
          </Link>
        </div>
      </TextSection>
    </>
  )
}
