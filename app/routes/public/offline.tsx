import { Link } from 'react-router'
import type { Route } from './+types/offline'
import { PageHero } from '~/components/page-blocks'
import { WITHOUT_SCRIPTS } from '~/components/page-scripts'
import { pageMeta } from '~/platform/seo'

export const meta: Route.MetaFunction = (args) => [
  ...pageMeta(args, { title: 'Offline', description: 'The pages this device keeps for reading without a connection.' }),
  { name: 'robots', content: 'noindex' },
]

export const handle = WITHOUT_SCRIPTS

/**
 * What the service worker (public/sw.js) shows when a page cannot be reached and was not read
 * before: this page, kept when the worker starts, with the pages it keeps written into the list.
 */
export default function Offline() {
  return (
    <>
      <PageHero title="You are offline" text="This page could not be reached. The pages you have read are kept on this device." />
      <section className="section" aria-labelledby="kept-pages">
        <div className="container">
          <h2 id="kept-pages">Pages you can read now</h2>
          {/* public/sw.js writes the kept pages into this list, found by its id. */}
          <ul id="offline-pages" className="offline-pages">
            <li>No pages are kept yet: pages you read while online are kept for next time.</li>
          </ul>
          <p>
            <Link to="/">Try the home page again</Link>
          </p>
        </div>
      </section>
    </>
  )
}
