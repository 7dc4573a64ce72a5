import { data } from 'react-router'
import { BackLink } from '~/components/back-link'
import type { Route } from './+types/$id'
import { auditSourceOf, recordAuditEvent } from '~/modules/audit/audit.service.server'
import { ArticleForm, ArticleMailingStatus } from './article-form'
import { emailArticleIfAsked } from './email-article.server'
import { articleMailingOf } from '~/modules/newsletter/mailings.server'
import { ConfirmButton } from '~/components/confirm-button'
import { ViewOrPreview } from '~/components/view-or-preview'
import { getArticleForEdit } from '~/modules/news/news.queries.server'
import { ArticleSchema } from '~/modules/news/news.schema'
import { withSiteLinksRelative } from '~/platform/site-links'
import { ArticleNotFoundError, updateArticle } from '~/modules/news/news.service.server'
import { requireAccess } from '~/platform/auth.server'
import { getSiteOrigin } from '~/platform/site-url.server'
import { publishingOf } from '~/platform/publication.server'
import { redirectToTrash } from '~/modules/trash/trash.server'
import { publishChoiceDefaults } from '~/platform/publication'
import { siteSettingsFor } from '~/modules/settings/settings.context.server'
import { logger } from '~/platform/logger.server'
import { MediaRejectedError } from '~/platform/media/media-rejected'
import { replyWithRejectedMedia } from '~/platform/media/media-reply'
import { redirectWithToast } from '~/platform/toast.server'
import adminNewsStylesUrl from '~/styles/admin-news.css?url'
import { env } from '~/platform/env.server'
import { parseFormSubmission } from '~/platform/form-submission.server'

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: adminNewsStylesUrl }]

export const meta: Route.MetaFunction = ({ data }) => [{ title: `${data?.article.title ?? 'Article'} | Site admin` }]

export async function loader({ request, params, context }: Route.LoaderArgs) {
  await requireAccess({ request, context }, 'news')
  const [article, { timeZone }, mailing] = await Promise.all([
    getArticleForEdit(params.id),
    siteSettingsFor(context),
    articleMailingOf(params.id),
  ])
  if (!article) throw data('Article not found', { status: 404 })
  if (article.trashedAt) throw redirectToTrash(article.title)
  return {
    article,
    timeZone,
    publishing: publishChoiceDefaults(article.publishAt, timeZone),
    mailing,
    publicUrlMissing: !env.PUBLIC_URL,
  }
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const user = await requireAccess({ request, context }, 'news')
  const submission = await parseFormSubmission(request, ArticleSchema)
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  try {
    const { timeZone } = await siteSettingsFor(context)
    const publishing = await publishingOf(submission.value, timeZone, { table: 'articles', id: params.id })
    await updateArticle(params.id, {
      ...withSiteLinksRelative(submission.value, 'content', getSiteOrigin(request, context)),
      ...publishing,
    })
  } catch (error) {
    if (error instanceof MediaRejectedError) return replyWithRejectedMedia(submission, error, 'image')
    if (error instanceof ArticleNotFoundError) {
      return redirectWithToast('/admin/news', 'This article has been deleted in the meantime.', 'error')
    }
    logger.error({ err: error, articleId: params.id }, 'article could not be updated')
    return data({ result: submission.reply({ formErrors: ['Failed to update article'] }) }, { status: 500 })
  }
  await recordAuditEvent({
    by: auditSourceOf(user, context),
    action: 'article.edited',
    target: { type: 'article', id: params.id, label: submission.value.title },
  })
  await emailArticleIfAsked(submission.value.emailSubscribers, params.id, submission.value.title, { request, context, user })
  return redirectWithToast('/admin/news', 'Article updated.')
}

export default function EditArticle({ loaderData, actionData }: Route.ComponentProps) {
  const { article, timeZone, publishing, mailing } = loaderData
  return (
    <div className="stack">
      <BackLink to="/admin/news">All articles</BackLink>
      <div className="admin-page-header">
        <h1>Edit article</h1>
        <ViewOrPreview table="articles" id={article.id} path={`/news/${article.slug}`} publish={publishing.publish} />
      </div>
      <ArticleForm
        key={article.id}
        lastResult={actionData?.result}
        defaultValue={{ title: article.title, content: article.content, imageAlt: article.image?.alt ?? '', ...publishing }}
        timeZone={timeZone}
        publicUrlMissing={loaderData.publicUrlMissing}
        currentImage={article.image}
        submitLabel="Save changes"
        submittingLabel="Saving..."
        mailing={mailing.waitingForPublication || mailing.progress ? <ArticleMailingStatus {...mailing} /> : undefined}
      />
      <section className="admin-danger-zone" aria-labelledby="delete-heading">
        <h2 id="delete-heading">Delete this article</h2>
        <ConfirmButton
          action="/admin/news"
          hiddenFields={{ id: article.id }}
          label="Delete article"
          confirmText="Are you sure you want to delete this article?"
          confirmLabel="Delete"
        />
      </section>
    </div>
  )
}
