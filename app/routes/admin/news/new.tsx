import { data } from 'react-router'
import { BackLink } from '~/components/back-link'
import type { Route } from './+types/new'
import { auditSourceOf, recordAuditEvent } from '~/modules/audit/audit.service.server'
import { ArticleForm } from './article-form'
import { ArticleSchema } from '~/modules/news/news.schema'
import { withSiteLinksRelative } from '~/platform/site-links'
import { createArticle } from '~/modules/news/news.service.server'
import { emailArticleIfAsked } from './email-article.server'
import { requireAccess } from '~/platform/auth.server'
import { getSiteOrigin } from '~/platform/site-url.server'
import { publishingOf } from '~/platform/publication.server'
import { siteSettingsFor } from '~/modules/settings/settings.context.server'
import { logger } from '~/platform/logger.server'
import { MediaRejectedError } from '~/platform/media/media-rejected'
import { replyWithRejectedMedia } from '~/platform/media/media-reply'
import { redirectWithToast } from '~/platform/toast.server'
import adminNewsStylesUrl from '~/styles/admin-news.css?url'
import { parseFormSubmission } from '~/platform/form-submission.server'
import { env } from '~/platform/env.server'
import { declareQueryParams } from '~/platform/query-params'

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: adminNewsStylesUrl }]

export const queryParams = declareQueryParams('from')

export const meta: Route.MetaFunction = () => [{ title: 'Add article | Site admin' }]

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAccess({ request, context }, 'news')
  return { timeZone: (await siteSettingsFor(context)).timeZone, publicUrlMissing: !env.PUBLIC_URL }
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireAccess({ request, context }, 'news')
  const submission = await parseFormSubmission(request, ArticleSchema)
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  let created: { id: string }
  try {
    const { timeZone } = await siteSettingsFor(context)
    created = await createArticle({
      ...withSiteLinksRelative(submission.value, 'content', getSiteOrigin(request, context)),
      ...(await publishingOf(submission.value, timeZone)),
    })
  } catch (error) {
    if (error instanceof MediaRejectedError) return replyWithRejectedMedia(submission, error, 'image')
    logger.error({ err: error }, 'article could not be saved')
    return data({ result: submission.reply({ formErrors: ['Failed to post article'] }) }, { status: 500 })
  }
  await recordAuditEvent({
    by: auditSourceOf(user, context),
    action: 'article.created',
    target: { type: 'article', id: created.id, label: submission.value.title },
  })
  await emailArticleIfAsked(submission.value.emailSubscribers, created.id, submission.value.title, { request, context, user })
  // "Add article" on the public news page opens this page with ?from=news: back there afterwards.
  const back = queryParams.read(request).from === 'news' ? '/news' : '/admin/news'
  return redirectWithToast(back, 'Article posted successfully!')
}

export default function NewArticle({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <div className="stack">
      <BackLink to="/admin/news">All articles</BackLink>
      <h1>Add article</h1>
      <ArticleForm
        lastResult={actionData?.result}
        timeZone={loaderData.timeZone}
        publicUrlMissing={loaderData.publicUrlMissing}
        submitLabel="Post Article"
        submittingLabel="Posting..."
      />
    </div>
  )
}
