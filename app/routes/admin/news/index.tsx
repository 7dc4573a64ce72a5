import { data, Link } from 'react-router'
import { z } from 'zod'
import type { Route } from './+types/index'
import { auditSourceOf, recordAuditEvent } from '~/modules/audit/audit.service.server'
import { AdminBadge, AdminTable, EditDeleteCell } from '~/components/admin-table'
import { ErrorList } from '~/components/forms'
import { AdminListPagination, adminListTitle } from '~/components/admin-list-pagination'
import { PublicationStateBadge, PublicationStateFilter } from '~/components/publication-state'
import { listArticlesForAdmin } from '~/modules/news/news.queries.server'
import { moveToTrash } from '~/modules/trash/trash.server'
import { siteSettingsFor } from '~/modules/settings/settings.context.server'
import { requireAccess } from '~/platform/auth.server'
import { formatDate } from '~/platform/dates'
import { logger } from '~/platform/logger.server'
import { redirectWithToast, redirectWithUndo } from '~/platform/toast.server'
import { parseFormSubmission } from '~/platform/form-submission.server'
import { describePublication, parsePublicationState } from '~/platform/publication'
import { declareQueryParams } from '~/platform/query-params'
import { backToList, askedListPage, listPageCount } from '~/platform/admin-list-page.server'
import { countInState } from '~/platform/publication.server'

export const meta: Route.MetaFunction = ({ data }) => [{ title: adminListTitle('News', data) }]

export const queryParams = declareQueryParams('state', 'page')

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAccess({ request, context }, 'news')
  const asked = queryParams.read(request)
  const state = parsePublicationState(asked.state)
  const page = askedListPage(asked.page)
  const pageCount = listPageCount(request, page, await countInState('articles', state))
  const [articles, settings] = await Promise.all([listArticlesForAdmin(state, page), siteSettingsFor(context)])
  return {
    state,
    page,
    pageCount,
    articles: articles.map((a) => ({
      ...a,
      dateLabel: formatDate(a.createdAt, settings.timeZone, 'date'),
      publication: describePublication(a.publishAt, settings.timeZone),
    })),
  }
}

const DeleteArticleSchema = z.object({
  id: z.string().trim().min(1).max(100),
  // The public news page's delete control comes back to the news.
  returnTo: z.enum(['/admin/news', '/news']).default('/admin/news'),
})

/** Moves an article to the trash (the only form on this page; the edit page posts here too). */
export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireAccess({ request, context }, 'news')
  const submission = await parseFormSubmission(request, DeleteArticleSchema)
  if (submission.status !== 'success') {
    return data({ error: 'Article ID is required for deletion' }, { status: 400 })
  }
  const { id } = submission.value
  const returnTo = backToList(request, submission.value.returnTo)
  let deleted: { label: string } | undefined
  try {
    deleted = await moveToTrash('article', id)
  } catch (error) {
    logger.error({ err: error, articleId: id }, 'article could not be deleted')
    return redirectWithToast(returnTo, 'Failed to delete article', 'error')
  }
  // Nothing is recorded for an article that was gone already: nobody deleted anything.
  if (deleted) {
    await recordAuditEvent({
      by: auditSourceOf(user, context),
      action: 'article.deleted',
      target: { type: 'article', id, label: deleted.label },
    })
    return redirectWithUndo(returnTo, 'Article moved to the trash.', { kind: 'article', id })
  }
  return redirectWithToast(returnTo, 'Article deleted.')
}

export default function AdminNews({ loaderData, actionData }: Route.ComponentProps) {
  const { articles, state, page, pageCount } = loaderData
  return (
    <div className="stack">
      <div className="admin-page-header">
        <h1>News</h1>
        <Link to="/admin/news/new" className="button">
          Add article
        </Link>
      </div>
      <ErrorList errors={actionData ? [actionData.error] : null} variant="form" />
      <PublicationStateFilter path="/admin/news" current={state} page={page} />
      {articles.length === 0 ? (
        <p>{state ? 'No articles in this state.' : 'No articles yet. Articles you add appear on the News page, newest first.'}</p>
      ) : (
        <AdminTable caption="Articles, newest first" columns={['Title', 'Posted']} actions>
          {articles.map((article) => (
            <tr key={article.id}>
              <td data-label="Title">
                <Link to={`/news/${article.slug}`}>{article.title}</Link>
                {article.hasImage ? <AdminBadge>image</AdminBadge> : null}
                {article.isSample ? <AdminBadge>sample</AdminBadge> : null}
                <PublicationStateBadge {...article.publication} />
              </td>
              <td data-label="Posted">
                <time dateTime={article.createdAt}>{article.dateLabel}</time>
              </td>
              <EditDeleteCell
                editTo={`/admin/news/${article.id}`}
                name={article.title}
                deleteFields={{ id: article.id }}
                confirmText="Are you sure you want to delete this article?"
              />
            </tr>
          ))}
        </AdminTable>
      )}
      <AdminListPagination path="/admin/news" state={state} page={page} pageCount={pageCount} label="Pages of articles" />
    </div>
  )
}
