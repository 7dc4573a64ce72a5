import type { Migration } from 'kysely'
import * as accountsAndSettings from './0001-accounts-and-settings'
import * as signInThrottling from './0002-sign-in-throttling'
import * as pageContent from './0003-page-content'
import * as contactMessages from './0004-contact-messages'
import * as imagesAndArticles from './0005-images-and-articles'
import * as videosAndUploads from './0006-videos-and-uploads'
import * as mediaItems from './0008-media-items'
import * as events from './0010-events'

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
}
