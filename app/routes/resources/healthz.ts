import { pingDatabase } from '~/platform/db.server'

export async function loader() {
  const ok = await pingDatabase()
  return Response.json(
    { status: ok ? 'ok' : 'unavailable', database: ok ? 'ok' : 'unreachable' },
    { status: ok ? 200 : 503, headers: { 'Cache-Control': 'no-store' } },
  )
}
