import type { Migration } from 'kysely'
import * as accountsAndSettings from './0001-accounts-and-settings'
import * as signInThrottling from './0002-sign-in-throttling'
import * as pageContent from './0003-page-content'
import * as contactMessages from './0004-contact-messages'
import * as imagesAndArticles from './0005-images-and-articles'
import * as videosAndUploads from './0006-videos-and-uploads'
import * as mediaItems from './0008-media-items'
import * as events from './0010-events'
import * as products from './0011-products'
import * as legacyImports from './0012-legacy-imports'
import * as auditLog from './0013-audit-log'
import * as pageHeroImages from './0014-page-hero-images'
import * as whatsappNumbersOfTheNorthAmericanPlan from './0015-whatsapp-numbers-of-the-north-american-plan'
import * as uploadQuotas from './0016-upload-quotas'
import * as allDayEvents from './0017-all-day-events'
import * as sampleContent from './0018-sample-content'
import * as accountLinks from './0019-account-links'
import * as twoStepSignIn from './0020-two-step-sign-in'
import * as publicationStates from './0021-publication-states'
import * as siteSearch from './0022-site-search'
import * as uploadLocks from './0023-upload-locks'
import * as previewLinks from './0024-preview-links'
import * as outgoingEmails from './0025-outgoing-emails'
import * as eventSignups from './0026-event-signups'
import * as subscribers from './0027-subscribers'
import * as contentChangesRenewTheContentVersion from './0028-content-changes-renew-the-content-version'
import * as sessionConfirmations from './0029-session-confirmations'
import * as repeatedSignups from './0030-repeated-signups'
import * as signupNumbersInFull from './0031-signup-numbers-in-full'

/** Every migration, in order. Listed explicitly so the server bundle, the CLI and the tests share one list. */
export const migrations: Record<string, Migration> = {
  '0001-accounts-and-settings': accountsAndSettings,
  '0002-sign-in-throttling': signInThrottling,
  '0003-page-content': pageContent,
  '0004-contact-messages': contactMessages,
  '0005-images-and-articles': imagesAndArticles,
  '0006-videos-and-uploads': videosAndUploads,
  '0008-media-items': mediaItems,
  '0010-events': events,
  '0011-products': products,
  '0012-legacy-imports': legacyImports,
  '0013-audit-log': auditLog,
  '0014-page-hero-images': pageHeroImages,
  '0015-whatsapp-numbers-of-the-north-american-plan': whatsappNumbersOfTheNorthAmericanPlan,
  '0016-upload-quotas': uploadQuotas,
  '0017-all-day-events': allDayEvents,
  '0018-sample-content': sampleContent,
  '0019-account-links': accountLinks,
  '0020-two-step-sign-in': twoStepSignIn,
  '0021-publication-states': publicationStates,
  '0022-site-search': siteSearch,
  '0023-upload-locks': uploadLocks,
  '0024-preview-links': previewLinks,
  '0025-outgoing-emails': outgoingEmails,
  '0026-event-signups': eventSignups,
  '0027-subscribers': subscribers,
  '0028-content-changes-renew-the-content-version': contentChangesRenewTheContentVersion,
  '0029-session-confirmations': sessionConfirmations,
  '0030-repeated-signups': repeatedSignups,
  '0031-signup-numbers-in-full': signupNumbersInFull,
}
