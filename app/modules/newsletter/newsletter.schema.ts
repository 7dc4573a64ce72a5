import { z } from 'zod'
import { honeypotSchema, optionalText, text } from '~/platform/form-schema'
import { TOPICS, type Topic } from './newsletter.topics'

export { TOPIC_LABELS, TOPICS, type Topic } from './newsletter.topics'

/** The topics of a subscriber's row (kept comma-separated). */
export function topicsOf(row: { topics: string }): Topic[] {
  return row.topics.split(',').filter((topic): topic is Topic => (TOPICS as readonly string[]).includes(topic))
}

export const SUBSCRIBER_STATE_LABELS = {
  pending: 'Invited to confirm',
  confirmed: 'Subscribed',
  unsubscribed: 'Unsubscribed',
} as const

/** The words people read, in one place. */
export const NEWSLETTER_MESSAGES = {
  // The same answer whether or not the address was subscribed already: it reveals nothing.
  checkYourInbox: 'Thank you! Please check your inbox: we have sent you a link to confirm your subscription.',
  tooMany: 'Too many sign-ups from your connection. Please try again later.',
  full: 'Our list is full right now, so we cannot add you yet. Please try again later.',
  confirmed: 'You are subscribed. Thank you for staying in touch!',
  alreadyConfirmed: 'You had confirmed already: you are subscribed. Thank you for staying in touch!',
  unusableLink: 'This link does not work (any more). You can sign up again with the form below.',
  unsubscribed: 'You are unsubscribed and will get no more e-mails from us.',
  topicsSaved: 'Your choice of topics is saved.',
  noTopics: 'Please choose at least one topic',
  noSmtp: 'E-mail is not set up on this site (SMTP_URL), so nothing can be sent yet.',
  noPublicUrl:
    'The site’s public address (PUBLIC_URL) is not set: articles e-mailed at their scheduled time, and the events digest when it goes out by itself, will carry links to this server’s own address, which readers may not be able to open.',
  invited: 'Invited: they will get an e-mail to confirm.',
  alreadyListed: 'That address is already on the list.',
  deleted: 'Deleted for good, with every e-mail to them.',
  importNotUtf8:
    'The file is not saved as UTF-8, so letters such as ë or ñ would be lost; nothing was imported. In Excel choose File › Save As and the type “CSV UTF-8 (Comma delimited)”; in LibreOffice Calc tick “Edit filter settings” when saving and choose “Unicode (UTF-8)”.',
  tooManySubscribers: 'The list is full: delete people who no longer confirm or read before adding more.',
  pendingFull: (count: number) =>
    `${count} people were invited to confirm and have not yet: until some confirm or their invitation expires (after 2 days), the sign-up form takes nobody new. If the addresses look made up, delete them.`,
} as const

const email = text({ error: 'Please enter your e-mail address' })
  .trim()
  .min(1, 'Please enter your e-mail address')
  .max(254, 'Please enter a valid e-mail address')
  .pipe(z.email('Please enter a valid e-mail address'))

const topics = z
  .array(z.enum(TOPICS, 'Please choose topics from the list'), { error: NEWSLETTER_MESSAGES.noTopics })
  .min(1, NEWSLETTER_MESSAGES.noTopics)
  .max(TOPICS.length)

/** Control characters never belong in a name that ends up in an e-mail. */
const singleLine = (value: string) => value.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim()

export const SubscribeSchema = z.object({
  email,
  firstName: optionalText('Your first name', 60).overwrite(singleLine),
  topics,
  ...honeypotSchema,
})
export type SubscribeInput = z.infer<typeof SubscribeSchema>

export const TopicsSchema = z.object({ topics })

export const AddSubscriberSchema = z.object({
  email,
  firstName: optionalText('The first name', 60).overwrite(singleLine),
  topics,
})
export type AddSubscriberInput = z.infer<typeof AddSubscriberSchema>

/** The last day of the month the events digest may go out by itself on: every month has it. */
export const LAST_DIGEST_DAY = 28
