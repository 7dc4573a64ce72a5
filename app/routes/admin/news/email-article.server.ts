import type { RouterContextProvider } from 'react-router'
import { auditSourceOf, recordAuditEvent } from '~/modules/audit/audit.service.server'
import { emailArticleWhenPublic } from '~/modules/newsletter/mailings.server'
import type { SessionUser } from '~/platform/auth.server'
import { getSiteOrigin } from '~/platform/site-url.server'

/** After an article was saved with "Also e-mail it to subscribers of News" ticked: queued now if public, else at its time. */
export async function emailArticleIfAsked(
  asked: boolean,
  articleId: string,
  title: string,
  { request, context, user }: { request: Request; context: Readonly<RouterContextProvider>; user: SessionUser },
): Promise<void> {
  if (!asked) return
  await emailArticleWhenPublic(articleId, getSiteOrigin(request, context))
  await recordAuditEvent({
    by: auditSourceOf(user, context),
    action: 'article.emailed',
    target: { type: 'article', id: articleId, label: title },
  })
}
