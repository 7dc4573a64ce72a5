import { Link } from 'react-router'
import type { Route } from './+types/about'
import { editHandle, pageTextsTarget } from '~/components/admin-bar'
import { WITHOUT_SCRIPTS } from '~/components/page-scripts'
import { PhoneAndEmail } from '~/components/contact-links'
import { CardList, PageHero, TextSection } from '~/components/page-blocks'
import { useRootData } from '~/components/root-data'
import { getPublicPage } from '~/modules/pages/pages.queries.server'
import { pageMeta } from '~/platform/seo'

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: 'About Us', description: args.loaderData?.content.hero.text ?? '' })

/** The admin bar's "Edit this page". */
export const handle = { ...editHandle(() => pageTextsTarget('about')), ...WITHOUT_SCRIPTS }

export async function loader() {
  return getPublicPage('about')
}

export default function About({ loaderData }: Route.ComponentProps) {
  const { content } = loaderData
  const { phone, email } = useRootData().settings
  return (
    <>
      <PageHero title={content.hero.title} text={content.hero.text} image={loaderData.heroImage} />

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
          <ul className="card-grid contact-person-cards">
            {content.contactPersons.people.map((person) => (
              <li key={`${person.name} ${person.role}`} className="card">
                <h3>{person.name}</h3>
                <p>{person.role}</p>
                <PhoneAndEmail phone={person.phone} email={person.email} line="p" />
                {person.phone || person.email ? null : (
                  // Everyone can be reached: without their own phone or e-mail, through the contact form.
                  <p>
                    <Link to="/contact" className="standalone-link">
                      Send a message<span className="visually-hidden">: {person.name}</span>
                    </Link>
                  </p>
                )}
              </li>
            ))}
          </ul>
        ) : null}
        {phone || email ? (
          <ul className="contact-details">
            <PhoneAndEmail phone={phone} email={email} line="li" />
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
