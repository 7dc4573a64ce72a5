import { checkDatabaseHealth } from '~/platform/db.server'
import { CACHE_PROFILES } from '~/platform/http-caching'

/** 200 only when the database answers and would take a write now; 503 otherwise. */
export async function loader() {
  const database = await checkDatabaseHealth()
  const ok = database === 'ok'
  return Response.json(
    { status: ok ? 'ok' : 'unavailable', database },
    { status: ok ? 200 : 503, headers: { 'Cache-Control': CACHE_PROFILES.momentary } },
  )
}
