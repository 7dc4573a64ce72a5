import { Link } from 'react-router'
import type { Route } from './+types/support'
import { editHandle, pageTextsTarget } from '~/components/admin-bar'
import { WITHOUT_SCRIPTS } from '~/components/page-scripts'
import { CopyButton } from '~/components/copy-button'
import { NewTabLink } from '~/components/new-tab-link'
import { CardList, PageHero, Paragraphs, TextSection } from '~/components/page-blocks'
import { useRootData } from '~/components/root-data'
import { getPublicPage } from '~/modules/pages/pages.queries.server'
import { siteSettingsFor } from '~/modules/settings/settings.context.server'
import { pageMeta } from '~/platform/seo'

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: 'Support Our Mission', description: args.loaderData?.content.hero.text ?? '' })

/** The admin bar's "Edit this page"; the Copy buttons work without the site's scripts. */
export const handle = { ...editHandle(() => pageTextsTarget('support')), ...WITHOUT_SCRIPTS }

export async function loader({ context }: Route.LoaderArgs) {
  const [page, { bankAccounts }] = await Promise.all([getPublicPage('support'), siteSettingsFor(context)])
  return { ...page, bankAccounts }
}

export default function Support({ loaderData }: Route.ComponentProps) {
  const { content, bankAccounts } = loaderData
  const { donationUrl, distributionHours } = useRootData().settings
  return (
    <>
      <PageHero title={content.hero.title} text={content.hero.text} image={loaderData.heroImage} />

      <TextSection id="ways-to-help" heading={content.waysToHelp.heading}>
        <CardList items={content.waysToHelp.items} />
      </TextSection>

      {donationUrl ? (
        <TextSection id="give-online" heading={content.giveOnline.heading} text={content.giveOnline.text} muted>
          <NewTabLink href={donationUrl} className="button">
            Donate Now
          </NewTabLink>
        </TextSection>
      ) : null}

      {bankAccounts.length > 0 ? (
        <TextSection id="bank-transfer" heading={content.bankTransfer.heading} text={content.bankTransfer.text}>
          <ul className="card-grid">
            {bankAccounts.map((account) => (
              <li key={account.accountNumber} className="card bank-account">
                <h3>{account.label}</h3>
                <dl className="details">
                  <div>
                    <dt>Bank</dt>
                    <dd>{account.bank}</dd>
                  </div>
                  <div>
                    <dt>Account name</dt>
                    <dd>{account.accountName}</dd>
                  </div>
                  <div>
                    <dt>Account number</dt>
                    <dd className="account-number">
                      <span className="account-number-value">{account.accountNumber}</span>
                      <CopyButton
                        value={account.accountNumber}
                        name={`Copy the ${account.label} account number`}
                        copied={`Copied the ${account.label} account number`}
                        failed="Could not copy: please select the number instead"
                      />
                    </dd>
                  </div>
                </dl>
                {account.notes ? <p className="muted">{account.notes}</p> : null}
              </li>
            ))}
          </ul>
          <div className="notes" role="note">
            <p>{content.bankTransfer.referenceNote}</p>
            <p>{content.bankTransfer.receiptNote}</p>
          </div>
        </TextSection>
      ) : null}

      <TextSection id="distribution" heading={content.distribution.heading} text={content.distribution.text} muted>
        {distributionHours ? (
          <p>
            <strong>Distribution hours:</strong> {distributionHours}
          </p>
        ) : null}
      </TextSection>

      <TextSection id="poetry-books" heading={content.poetryBooks.heading} text={content.poetryBooks.text} />

      <section className="section cta-band" aria-labelledby="support-contact">
        <div className="container">
          <h2 id="support-contact">{content.contact.heading}</h2>
          <Paragraphs text={content.contact.text} className="lead" />
          <Link to="/contact" className="button-secondary">
            Contact Us
          </Link>
        </div>
      </section>
    </>
  )
}
