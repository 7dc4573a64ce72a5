import { formEntriesFilter, type FormEntries } from '~/platform/form-entries'
import type { PageEditor } from './pages.editor'

/**
 * The entries of a posted page texts form that the page's editor can produce (see form-entries):
 * a fixed set of fields, spare contact person rows included, and no row buttons.
 */
export function pageFormEntries(editor: PageEditor, formData: FormData): FormEntries {
  const fields = editor.groups.flatMap((group) => group.fields.map((field) => field.name))
  return formEntriesFilter({ fields })(formData)
}
