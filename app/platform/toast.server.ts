import { redirect } from 'react-router'
import { z } from 'zod'

/** A one-time message carried across a redirect in a short-lived cookie, shown by the root layout. */
const ToastSchema = z.object({
  type: z.enum(['success', 'error', 'info']),
  message: z.string().max(500),
})
export type Toast = z.infer<typeof ToastSchema>

const COOKIE = 'toast'

function serializeToast(toast: Toast): string {
  const value = Buffer.from(JSON.stringify(toast)).toString('base64url')
  return `${COOKIE}=${value}; Path=/; HttpOnly; SameSite=Lax; Max-Age=60`
}

export function redirectWithToast(url: string, message: string, type: Toast['type'] = 'success', init?: ResponseInit) {
  const headers = new Headers(init?.headers)
  headers.append('Set-Cookie', serializeToast({ type, message }))
  return redirect(url, { ...init, headers })
}

/** Reads the pending toast, if any, and the header that clears it. */
export function takeToast(request: Request): { toast: Toast | null; headers: Headers } {
  const headers = new Headers()
  const raw = request.headers
    .get('cookie')
    ?.split(/;\s*/)
    .find((c) => c.startsWith(`${COOKIE}=`))
    ?.slice(COOKIE.length + 1)
  if (!raw) return { toast: null, headers }
  headers.append('Set-Cookie', `${COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0`)
  try {
    const parsed = ToastSchema.safeParse(JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')))
    return { toast: parsed.success ? parsed.data : null, headers }
  } catch {
    return { toast: null, headers }
  }
}
