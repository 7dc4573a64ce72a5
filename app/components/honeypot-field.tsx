import { HONEYPOT_FIELD } from '~/platform/honeypot'

/** Hidden from people and assistive technology; a bot that fills it is ignored. */
export function HoneypotField({ id }: { id: string }) {
  return (
    <div className="form-honeypot" aria-hidden="true">
      <label htmlFor={id}>Leave this field empty</label>
      <input id={id} name={HONEYPOT_FIELD} type="text" tabIndex={-1} autoComplete="off" defaultValue="" />
    </div>
  )
}
