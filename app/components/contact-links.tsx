/** A `tel:` address that phones dial: the number's digits and a leading +, without spaces or dashes. */
export function telHref(phone: string) {
  return `tel:${phone.replace(/[^\d+]/g, '')}`
}

/** "Phone: …" and "E-mail: …" lines, each a link, each only when there is one. */
export function PhoneAndEmail({ phone, email, line: Line }: { phone?: string; email?: string; line: 'li' | 'p' }) {
  return (
    <>
      {phone ? (
        <Line>
          Phone: <a href={telHref(phone)}>{phone}</a>
        </Line>
      ) : null}
      {email ? (
        <Line>
          E-mail: <a href={`mailto:${email}`}>{email}</a>
        </Line>
      ) : null}
    </>
  )
}
