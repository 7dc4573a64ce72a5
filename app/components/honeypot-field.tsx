import { HONEYPOT_FIELD } from '~/modules/inbox/contact.schema'

/** A field hidden from people and assistive technology; a bot that fills every input fills it too, and is ignored. */
export function HoneypotField({ id }: { id: string }) {
  return (
    <div className="honeypot-field" aria-hidden="true">
      <label htmlFor={id}>Leave this field empty</label>
      <input id={id} name={HONEYPOT_FIELD} type="text" tabIndex={-1} autoComplete="off" defaultValue="" />
    </div>
  )
}
