import type { OutgoingEmail } from '~/modules/outgoing-mail/outgoing-mail.server'
import { escapeMarkup } from '~/platform/escape-markup'

/**
 * The e-mails to subscribers, drawn from one layout: the site's name and colours, the content, and a
 * footer saying why the person gets it with the links to change topics and unsubscribe. HTML with a
 * plain-text part, inline styles only (mail clients drop style sheets), absolute links, no tracking.
 */

export interface EmailContent {
  subject: string
  /** The body's HTML, already escaped or rendered from Markdown. */
  html: string
  text: string
}

/** The links of one subscriber's e-mails. */
export function subscriberLinks(origin: string, manageSecret: string) {
  return {
    unsubscribe: `${origin}/subscribe/unsubscribe/${manageSecret}`,
    topics: `${origin}/subscribe/topics/${manageSecret}`,
  }
}

/**
 * Wraps content in the site's e-mail layout; `links` adds the unsubscribe footer and headers (RFC 8058).
 * Synchronous, with the site's name given: it is called inside transactions, which may not wait on another query.
 */
export function composeEmail(
  organisationName: string,
  to: string,
  content: EmailContent,
  links: { unsubscribe: string; topics: string } | null,
): Pick<OutgoingEmail, 'to' | 'subject' | 'html' | 'text' | 'headers'> {
  const site = escapeMarkup(organisationName)
  const footerHtml = links
    ? `<p>You get this e-mail because you subscribed to updates from ${site}.<br>` +
      `<a href="${escapeMarkup(links.topics)}" style="color:#1d4e89">Change your topics</a> · ` +
      `<a href="${escapeMarkup(links.unsubscribe)}" style="color:#1d4e89">Unsubscribe</a></p>`
    : `<p>You get this e-mail because someone entered your address on the website of ${site}. If it was not you, ignore it: nothing more will be sent.</p>`
  const html = [
    '<!doctype html><html><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeMarkup(content.subject)}</title></head>`,
    '<body style="margin:0;padding:0;background:#f4f1ea">',
    '<div style="max-width:600px;margin:0 auto;padding:24px 16px;font-family:Georgia,serif;color:#222;line-height:1.5">',
    `<p style="font-size:20px;font-weight:bold;color:#1d4e89;margin:0 0 16px">${site}</p>`,
    `<div style="background:#fff;padding:20px;border-radius:8px">${content.html}</div>`,
    `<div style="font-size:13px;color:#555;margin-top:16px">${footerHtml}</div>`,
    '</div></body></html>',
  ].join('')
  const footerText = links
    ? `You get this e-mail because you subscribed to updates from ${organisationName}.\nChange your topics: ${links.topics}\nUnsubscribe: ${links.unsubscribe}`
    : `You get this e-mail because someone entered your address on the website of ${organisationName}. If it was not you, ignore it: nothing more will be sent.`
  return {
    to,
    subject: content.subject,
    html,
    text: `${content.text}\n\n--\n${footerText}\n`,
    headers: links
      ? { 'List-Unsubscribe': `<${links.unsubscribe}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' }
      : undefined,
  }
}

/** A paragraph and a button-like link, in HTML and text. */
export function paragraphWithLink(paragraph: string, label: string, href: string): Pick<EmailContent, 'html' | 'text'> {
  return {
    html:
      `<p>${escapeMarkup(paragraph)}</p>` +
      `<p><a href="${escapeMarkup(href)}" style="display:inline-block;padding:12px 20px;background:#1d4e89;color:#fff;text-decoration:none;border-radius:6px">${escapeMarkup(label)}</a></p>`,
    text: `${paragraph}\n\n${label}: ${href}`,
  }
}
