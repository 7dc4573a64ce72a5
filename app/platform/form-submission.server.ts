import type { Submission } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import type { $ZodType, input, output } from 'zod/v4/core'
import { keepFormEntries, UNREADABLE_FORM_MESSAGE } from './form-entries'
import { formShapeOf } from './form-shape'
import { readFormData } from './read-form.server'

type ReplyOptions = NonNullable<Parameters<Submission<unknown>['reply']>[0]>

export interface FormSubmissionOptions {
  /** Fields never sent back in a reply (passwords). */
  hideFields?: string[]
  /** The form has add-row and remove-row buttons for its lists (see form-entries). */
  listButtons?: boolean
}

/**
 * The one way a route reads a posted form: the body is read only as far as the schema's form can
 * go (see form-entries), then parsed with conform. A request carrying anything else is refused
 * unparsed: its submission has status 'error' and replies with UNREADABLE_FORM_MESSAGE alone, so
 * the route's usual `if (submission.status !== 'success') return data(..., { status: 400 })`
 * answers it. Replies never send back hidden fields or values longer than their field allows.
 */
export async function parseFormSubmission<Schema extends $ZodType>(
  request: Request,
  schema: Schema,
  options: FormSubmissionOptions = {},
): Promise<Submission<input<Schema>, string[], output<Schema>>> {
  const shape = formShapeOf(schema, { listButtons: options.listButtons })
  const formData = await readFormData(request, shape.maxEntries)
  const kept = formData && keepFormEntries(shape, formData)
  if (!kept) return refusedSubmission()
  const submission = parseWithZod(kept.entries, { schema })
  const hidden = [...(options.hideFields ?? []), ...kept.unechoed]
  const reply = submission.reply
  submission.reply = (replyOptions: ReplyOptions = {}) => {
    if ('resetForm' in replyOptions) return reply(replyOptions)
    const alsoHidden = 'hideFields' in replyOptions ? (replyOptions.hideFields ?? []) : []
    return reply({ ...replyOptions, hideFields: [...hidden, ...alsoHidden] })
  }
  return submission
}

function refusedSubmission<Input, Output>(): Submission<Input, string[], Output> {
  const error = { '': [UNREADABLE_FORM_MESSAGE] }
  return { status: 'error', payload: {}, error, reply: () => ({ status: 'error', error }) }
}
