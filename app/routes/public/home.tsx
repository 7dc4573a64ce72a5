import { Link } from 'react-router'
import type { Route } from './+types/home'
import { editHandle, pageTextsTarget } from '~/components/admin-bar'
import { NewsletterSignup } from '~/components/newsletter-signup'
import { useNonce } from '~/components/nonce'
import { OfflineReadingScript } from '~/components/offline-reading'
import { WITHOUT_SCRIPTS } from '~/components/page-scripts'
import { MediaThumbnail } from '~/components/media-thumbnail'
import { ProductPlaceholder } from '~/components/image-carousel'
import { ResponsiveImage } from '~/components/responsive-image'
import { CardList, ImpactFigures, PageHero, Paragraphs, TextSection } from '~/components/page-blocks'
import { HIGHLIGHTS_SHOWN, PICK_HIGHLIGHTS_SCRIPT } from '~/modules/marketplace/highlights'
import { listUpcomingOccurrences } from '~/modules/events/events.queries.server'
import { HOME_UPCOMING_LIMIT } from '~/modules/events/events.schema'
import { formatOccurrenceWhen, nextDatesLabel } from '~/modules/events/events.wording.server'
import {
  loadHomeHighlights,
  orEmpty,
  type FeaturedMoment,
  type MarketplaceHighlight,
} from '~/modules/pages/home-highlights.server'
import { getPublicPage } from '~/modules/pages/pages.queries.server'
import { siteSettingsFor } from '~/modules/settings/settings.context.server'
import { pageMeta } from '~/platform/seo'
import { cachedUntilContentChanges } from '~/platform/content-cache.server'

export const meta: Route.MetaFunction = (args) => pageMeta(args, { description: args.loaderData?.content.hero.text ?? '' })

/** The admin bar's "Edit this page"; the page is all links, and picks its products with a few lines of its own. */
export const handle = { ...editHandle(() => pageTextsTarget('home')), ...WITHOUT_SCRIPTS }

const MINUTE_MS = 60_000

/**
 * The next dates, worked out from the events' repeat rules once a minute until the content
 * changes, not for each visitor (they were a tenth of the page's work): an event that has begun
 * leaves the strip within a minute.
 */
const cachedUpcoming = cachedUntilContentChanges((key) => {
  const [minute, timeZone] = key.split(' ')
  return listUpcomingOccurrences({ from: new Date(Number(minute) * MINUTE_MS), limit: HOME_UPCOMING_LIMIT, timeZone })
}, 2)

export async function loader({ context }: Route.LoaderArgs) {
  const { timeZone, impactFigures } = await siteSettingsFor(context)
  const [{ content, heroImage }, highlights, upcomingEvents] = await Promise.all([
    getPublicPage('home'),
    loadHomeHighlights(),
    orEmpty('Failed to load events', () => cachedUpcoming(`${Math.floor(Date.now() / MINUTE_MS)} ${timeZone}`)),
  ])
  return {
    content,
    heroImage,
    impactFigures,
    featuredMoments: highlights.featuredMoments,
    marketplaceHighlights: highlights.marketplaceHighlights,
    // Formatted here, in the site's time zone, so server and browser show the same text.
    upcomingLabel: nextDatesLabel(upcomingEvents.length),
    upcomingEvents: upcomingEvents.map((event) => ({
      key: `${event.eventId}-${event.date}`,
      href: `/calendar/${encodeURIComponent(event.slug)}?date=${event.date}`,
      title: event.title,
      location: event.location,
      dateTime: event.allDay ? event.date : event.startsAt,
      when: formatOccurrenceWhen(event, timeZone),
    })),
  }
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const { content, featuredMoments, marketplaceHighlights, upcomingEvents, upcomingLabel, impactFigures } = loaderData
  return (
    <>
      <PageHero title={content.hero.title} text={content.hero.text} image={loaderData.heroImage} full>
        <div className="button-row">
          <Link to="/support" className="button">
            Support Our Mission
          </Link>
          <Link to="/about" className="button-secondary">
            Learn About Us
          </Link>
        </div>
      </PageHero>

      <FeaturedMoments items={featuredMoments} />
      <MarketplaceHighlights items={marketplaceHighlights} />

      <TextSection id="programmes" heading={content.programmes.heading}>
        <CardList items={content.programmes.items} feature />
      </TextSection>

      <TextSection id="help-areas" heading={content.helpAreas.heading} text={content.helpAreas.text} muted>
        <CardList items={content.helpAreas.items} linkTo="/services" />
      </TextSection>

      <TextSection id="impact" heading={content.impact.heading} text={content.impact.text}>
        <ImpactFigures figures={impactFigures} />
        <p>
          <Link to="/impact" className="button-secondary">
            See Our Impact
          </Link>
        </p>
      </TextSection>

      <section className="section cta-band" aria-labelledby="donate">
        <div className="container">
          <h2 id="donate">{content.donation.heading}</h2>
          <Paragraphs text={content.donation.text} className="lead" />
          <div className="button-row">
            <Link to="/support" className="button-secondary">
              Ways to Give
            </Link>
            <Link to="/contact" className="button-ghost">
              Contact Us
            </Link>
          </div>
        </div>
      </section>

      <section className="section section-muted" aria-labelledby="upcoming-events">
        <div className="container">
          <div className="section-header">
            <div>
              <h2 id="upcoming-events">Upcoming Events</h2>
              {upcomingLabel ? <p className="section-header-note">{upcomingLabel}</p> : null}
            </div>
            <Link to="/calendar" className="button-secondary button-small">
              View Calendar
            </Link>
          </div>
          {upcomingEvents.length === 0 ? (
            <p className="empty-state">No upcoming events scheduled</p>
          ) : (
            <ul className="event-strip">
              {upcomingEvents.map((event) => (
                <li key={event.key}>
                  <Link to={event.href} className="card event-card">
                    <time className="event-when" dateTime={event.dateTime}>
                      {event.when}
                    </time>
                    <span className="event-title">{event.title}</span>
                    {event.location ? <span className="event-location">{event.location}</span> : null}
                  </Link>
                </li>
              ))}
            </ul>
          )}
        </div>
      </section>

      <div className="section">
        <div className="container newsletter-page">
          <NewsletterSignup idPrefix="home-signup" className="card" />
        </div>
      </div>
      <OfflineReadingScript />
    </>
  )
}

/** Up to four featured photos and videos; hidden when there are none. */
function FeaturedMoments({ items }: { items: readonly FeaturedMoment[] }) {
  if (items.length === 0) return null
  return (
    <section className="section" aria-labelledby="featured-moments">
      <div className="container">
        <div className="section-header">
          <h2 id="featured-moments">Featured Moments</h2>
          <Link to="/photos" className="button-secondary button-small">
            View Gallery
          </Link>
        </div>
        <ul className="card-grid card-grid-pairs">
          {items.map((item) => (
            <li key={item.slug} className="card media-card">
              <Link to={`/photos/${item.slug}`} className="media-card-link">
                <MediaThumbnail item={item} sizes="(min-width: 72rem) 17rem, (min-width: 40rem) 45vw, 100vw" />
                <span className="media-card-title">
                  {item.kind === 'video' ? <span className="visually-hidden">Video: </span> : null}
                  {item.title}
                </span>
              </Link>
            </li>
          ))}
        </ul>
      </div>
    </section>
  )
}

/** Three products from the youth marketplace; hidden when there are none. */
function MarketplaceHighlights({ items }: { items: readonly MarketplaceHighlight[] }) {
  const nonce = useNonce()
  if (items.length === 0) return null
  return (
    <section className="section section-muted" aria-labelledby="marketplace-highlights">
      <div className="container">
        <div className="section-header">
          <h2 id="marketplace-highlights">From Our Young Entrepreneurs</h2>
          <Link to="/marketplace" className="button-secondary button-small">
            View All Items
          </Link>
        </div>
        {/* All of them are in the page, three shown; the script below picks the three of this visit. */}
        <ul className="card-grid">
          {items.map((item, index) => (
            <li key={item.slug} className="card media-card" hidden={index >= HIGHLIGHTS_SHOWN} suppressHydrationWarning>
              <Link to={`/marketplace/${encodeURIComponent(item.slug)}`} className="media-card-link">
                {item.image ? (
                  <ResponsiveImage image={{ ...item.image, alt: '' }} sizes="(min-width: 48rem) 33vw, 100vw" />
                ) : (
                  <ProductPlaceholder />
                )}
                <span className="media-card-title">{item.name}</span>
              </Link>
              {item.price ? <p className="product-price">{item.price}</p> : null}
            </li>
          ))}
        </ul>
        <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: PICK_HIGHLIGHTS_SCRIPT }} />
      </div>
    </section>
  )
}
