import { Link } from 'react-router'
import type { Route } from './+types/services'
import { editHandle, pageTextsTarget } from '~/components/admin-bar'
import { WITHOUT_SCRIPTS } from '~/components/page-scripts'
import { CardList, ImpactFigures, PageHero, TextSection } from '~/components/page-blocks'
import { getPublicPage } from '~/modules/pages/pages.queries.server'
import { siteSettingsFor } from '~/modules/settings/settings.context.server'
import { pageMeta } from '~/platform/seo'

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: 'Our Services', description: args.loaderData?.content.hero.text ?? '' })

/** The admin bar's "Edit this page". */
export const handle = { ...editHandle(() => pageTextsTarget('services')), ...WITHOUT_SCRIPTS }

export async function loader({ context }: Route.LoaderArgs) {
  const [page, { impactFigures }] = await Promise.all([getPublicPage('services'), siteSettingsFor(context)])
  return { ...page, impactFigures }
}

export default function Services({ loaderData }: Route.ComponentProps) {
  const { content, impactFigures } = loaderData
  return (
    <>
      <PageHero title={content.hero.title} text={content.hero.text} image={loaderData.heroImage} />

      <TextSection id="services" heading={content.services.heading}>
        <CardList items={content.services.items} />
      </TextSection>

      <TextSection id="impact" heading={content.impact.heading} text={content.impact.text} muted>
        <ImpactFigures figures={impactFigures} />
      </TextSection>

      <TextSection id="call-to-action" heading={content.callToAction.heading} text={content.callToAction.text}>
        <div className="button-row">
          <Link to="/contact" className="button">
            Contact Us
          </Link>
          <Link to="/support" className="button-secondary">
            Support Our Mission
          </Link>
        </div>
      </TextSection>
    </>
  )
}
