import { Link } from 'react-router'
import type { Route } from './+types/about'
import { CardList, PageHero, TextSection } from '~/components/page-blocks'
import { useRootData } from '~/components/root-data'
import { getPageContent } from '~/modules/pages/pages.queries.server'
import { pageMeta } from '~/platform/seo'
import pagesStylesUrl from '~/styles/pages.css?url'

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: pagesStylesUrl }]

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: 'About Us', description: args.loaderData?.content.hero.text ?? '' })

export async function loader() {
  return { content: await getPageContent('about') }
}

export default function About({ loaderData }: Route.ComponentProps) {
  const { content } = loaderData
  const { phone, email } = useRootData().settings
  return (
    <>
      <PageHero title={content.hero.title} text={content.hero.text} />

      <TextSection id="journey" heading={content.journey.heading} text={content.journey.text} />

      <TextSection id="values" heading={content.values.heading} muted>
        <CardList items={content.values.items} />
      </TextSection>

      <TextSection id="initiatives" heading={content.initiatives.heading}>
        <CardList items={content.initiatives.items} />
      </TextSection>

      <TextSection id="outreach" heading={content.outreach.heading} text={content.outreach.text} muted />

      <TextSection id="contact-persons" heading={content.contactPersons.heading} text={content.contactPersons.text}>
        {content.contactPersons.people.length > 0 ? (
          <ul className="card-grid">
            {content.contactPersons.people.map((person) => (
              <li key={`${person.name} ${person.role}`} className="card">
                <h3>{person.name}</h3>
                <p>{person.role}</p>
                {person.phone ? (
                  <p>
                    Phone: <a href={telHref(person.phone)}>{person.phone}</a>
                  </p>
                ) : null}
                {person.email ? (
                  <p>
                    E-mail: <a href={`mailto:${person.email}`}>{person.email}</a>
                  </p>
                ) : null}
              </li>
            ))}
          </ul>
        ) : null}
        {phone || email ? (
          <ul className="contact-details">
            {phone ? (
              <li>
                Phone: <a href={telHref(phone)}>{phone}</a>
              </li>
            ) : null}
            {email ? (
              <li>
                E-mail: <a href={`mailto:${email}`}>{email}</a>
              </li>
            ) : null}
          </ul>
        ) : null}
      </TextSection>

      <TextSection id="call-to-action" heading={content.callToAction.heading} text={content.callToAction.text} muted>
        <Link to="/contact" className="button">
          Contact Us
        </Link>
      </TextSection>
    </>
  )
}

function telHref(phone: string) {
  return `tel:${phone.replace(/[^\d+]/g, '')}`
}
