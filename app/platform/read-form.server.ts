import { data } from 'react-router'
import { UNREADABLE_FORM_MESSAGE } from './form-entries'

/** The posted form; a body that is no form (JSON, plain text, a broken upload) gets a 400, not a 500. */
export async function readFormData(request: Request): Promise<FormData> {
  try {
    return await request.formData()
  } catch {
    throw data(UNREADABLE_FORM_MESSAGE, { status: 400 })
  }
}
