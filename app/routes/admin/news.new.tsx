import { parseWithZod } from '@conform-to/zod/v4'
import { data, Link } from 'react-router'
import type { Route } from './+types/news.new'
import { ArticleForm } from './article-form'
import { ArticleSchema } from '~/modules/news/news.schema'
import { createArticle } from '~/modules/news/news.service.server'
import { requireAccess } from '~/platform/auth.server'
import { logger } from '~/platform/logger.server'
import { MediaRejectedError } from '~/platform/media/media-rejected'
import { replyWithRejectedMedia } from '~/platform/media/media-reply'
import { redirectWithToast } from '~/platform/toast.server'
import adminNewsStylesUrl from '~/styles/admin-news.css?url'
import { readFormData } from '~/platform/read-form.server'

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: adminNewsStylesUrl }]

export const meta: Route.MetaFunction = () => [{ title: 'Add article | Site admin' }]

export async function loader({ request }: Route.LoaderArgs) {
  await requireAccess(request, 'news')
  return null
}

export async function action({ request }: Route.ActionArgs) {
  await requireAccess(request, 'news')
  const submission = parseWithZod(await readFormData(request), { schema: ArticleSchema })
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  try {
    await createArticle(submission.value)
  } catch (error) {
    if (error instanceof MediaRejectedError) return replyWithRejectedMedia(submission, error, 'image')
    logger.error({ err: error }, 'article could not be saved')
    return data({ result: submission.reply({ formErrors: ['Failed to post article'] }) }, { status: 500 })
  }
  return redirectWithToast('/admin/news', 'Article posted successfully!')
}

export default function NewArticle({ actionData }: Route.ComponentProps) {
  return (
    <div className="stack">
      <p>
        <Link to="/admin/news">All articles</Link>
      </p>
      <h1>Add article</h1>
      <ArticleForm lastResult={actionData?.result} submitLabel="Post Article" submittingLabel="Posting..." />
    </div>
  )
}
