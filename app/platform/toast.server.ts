import { redirect } from 'react-router'
import { z } from 'zod'

/** A value carried across one redirect in a short-lived cookie (cookie-safe characters only). */
export function oneTimeCookie(name: string, value: string): string {
  return `${name}=${value}; Path=/; HttpOnly; SameSite=Lax; Max-Age=60`
}

/** The value of a one-time cookie, if the request carries one, and the header that clears it. */
export function takeOneTimeCookie(request: Request, name: string): { value: string | null; headers: Headers } {
  const headers = new Headers()
  const value = request.headers
    .get('cookie')
    ?.split(/;\s*/)
    .find((c) => c.startsWith(`${name}=`))
    ?.slice(name.length + 1)
  if (!value) return { value: null, headers }
  headers.append('Set-Cookie', `${name}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0`)
  return { value, headers }
}

/** A one-time message carried across a redirect in a short-lived cookie, shown by the root layout. */
const ToastSchema = z.object({
  type: z.enum(['success', 'error', 'info']),
  message: z.string().max(500),
  /** What the toast's Undo button posts (see app/components/toaster.tsx): an item moved to the trash. */
  undo: z.object({ kind: z.string().max(20), id: z.string().max(100), returnTo: z.string().max(300) }).optional(),
})
export type Toast = z.infer<typeof ToastSchema>

const COOKIE = 'toast'

export function redirectWithToast(url: string, message: string, type: Toast['type'] = 'success', init?: ResponseInit) {
  const headers = new Headers(init?.headers)
  headers.append('Set-Cookie', oneTimeCookie(COOKIE, Buffer.from(JSON.stringify({ type, message })).toString('base64url')))
  return redirect(url, { ...init, headers })
}

/** A success toast with an Undo button that takes `undo` back out of the trash and returns to `url`. */
export function redirectWithUndo(url: string, message: string, undo: { kind: string; id: string }) {
  const value = { type: 'success', message, undo: { ...undo, returnTo: url } } satisfies Toast
  return redirect(url, {
    headers: { 'Set-Cookie': oneTimeCookie(COOKIE, Buffer.from(JSON.stringify(value)).toString('base64url')) },
  })
}

/** Reads the pending toast, if any, and the header that clears it. */
export function takeToast(request: Request): { toast: Toast | null; headers: Headers } {
  const { value, headers } = takeOneTimeCookie(request, COOKIE)
  if (!value) return { toast: null, headers }
  try {
    const parsed = ToastSchema.safeParse(JSON.parse(Buffer.from(value, 'base64url').toString('utf8')))
    return { toast: parsed.success ? parsed.data : null, headers }
  } catch {
    return { toast: null, headers }
  }
}
