import crypto from 'node:crypto'
import type { RouterContextProvider } from 'react-router'
import { createBackgroundWorker } from '~/platform/background-worker.server'
import { db, nowIso } from '~/platform/db.server'
import { env } from '~/platform/env.server'
import { logger } from '~/platform/logger.server'
import { requestInfoContext } from '~/platform/request-context'
import type { SessionUser } from '~/platform/session.server'
import { BACKGROUND, COMMAND_LINE, type AuditAction, type AuditTargetType } from './audit.actions'

/** Who did it and from where. `id` is null when nobody was signed in (a failed sign-in, the command line). */
export interface AuditSource {
  actor: { id: string | null; email: string; name: string }
  clientAddress: string
}

export interface AuditEventInput {
  by: AuditSource
  action: AuditAction
  /** The thing acted on, with a label people recognise (an article's title) that outlives it. */
  target?: { type: AuditTargetType; id: string | null; label: string }
  /** A few facts more (the role given, an import's counts); kept as a small JSON object. */
  detail?: Record<string, string | number | boolean | null>
}

export const AUDIT_POLICY = {
  /** The sweep removes entries older than AUDIT_LOG_DAYS this often, and at start. */
  sweepEveryMs: 60 * 60_000,
  /** Rows per delete, so a first sweep of a large table does not hold the database for long. */
  sweepBatch: 1_000,
  /** Longer detail JSON is not kept (the event is). */
  maxDetailChars: 2_000,
  maxTextChars: 300,
}

/** The signed-in user of a request, at the client address the server saw. */
export function auditSourceOf(
  user: Pick<SessionUser, 'id' | 'email' | 'name'>,
  context: Readonly<RouterContextProvider>,
): AuditSource {
  return { actor: { id: user.id, email: user.email, name: user.name }, clientAddress: context.get(requestInfoContext).clientIp }
}

/** Someone at the server's command line (an import, the account tool): no user, no address. */
export const FROM_COMMAND_LINE: AuditSource = { actor: { id: null, email: '', name: '' }, clientAddress: COMMAND_LINE }

/** The site itself, on a timer: no user, no address. */
export const BY_THE_SITE: AuditSource = { actor: { id: null, email: '', name: '' }, clientAddress: BACKGROUND }

const clip = (text: string) =>
  text.length > AUDIT_POLICY.maxTextChars ? `${text.slice(0, AUDIT_POLICY.maxTextChars - 1)}…` : text

/**
 * Adds one entry to the audit log, after the action itself succeeded. Never throws: an entry
 * that cannot be written is logged, and the user's action stands.
 */
export async function recordAuditEvent({ by, action, target, detail }: AuditEventInput): Promise<void> {
  const detailJson = detail ? JSON.stringify(detail) : null
  try {
    await db
      .insertInto('auditEvents')
      .values({
        id: crypto.randomUUID(),
        at: nowIso(),
        actorUserId: by.actor.id,
        actorEmail: clip(by.actor.email),
        actorName: clip(by.actor.name),
        action,
        targetType: target?.type ?? null,
        targetId: target?.id ?? null,
        targetLabel: target ? clip(target.label) : null,
        clientAddress: clip(by.clientAddress),
        detail: detailJson && detailJson.length <= AUDIT_POLICY.maxDetailChars ? detailJson : null,
      })
      .execute()
  } catch (error) {
    logger.error({ err: error, action, actorId: by.actor.id, target }, 'audit event could not be recorded')
  }
}

/** Removes one batch of entries older than `days` before `now`; returns how many went. */
export async function deleteExpiredAuditEvents(now = new Date(), days = env.AUDIT_LOG_DAYS): Promise<number> {
  const cutoff = new Date(now.getTime() - days * 24 * 60 * 60_000).toISOString()
  const result = await db
    .deleteFrom('auditEvents')
    .where('id', 'in', (eb) => eb.selectFrom('auditEvents').select('id').where('at', '<', cutoff).limit(AUDIT_POLICY.sweepBatch))
    .executeTakeFirst()
  return Number(result.numDeletedRows)
}

const auditSweeper = createBackgroundWorker({
  name: 'audit log retention',
  pass: async () => ({ more: (await deleteExpiredAuditEvents()) === AUDIT_POLICY.sweepBatch }),
  intervalMs: AUDIT_POLICY.sweepEveryMs,
})

export const startAuditSweeper = auditSweeper.start
export const stopAuditSweeper = auditSweeper.stop
