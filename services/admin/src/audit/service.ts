import { and, desc, eq, gte, lt, sql, type SQL } from 'drizzle-orm'
import { adminUsers, auditLog, toIsoUtc, type Database, type Db } from '@app/db'
import type { PageRequest } from '@app/kit'

export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]

export interface AuditEntry {
  adminId: string
  action: string
  entity: string
  entityId: string
  before?: Record<string, unknown> | null
  after?: Record<string, unknown> | null
  reason?: string | null
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)

/** Only the fields that changed, as they were and as they are. */
export function changedFields(before: Record<string, unknown>, after: Record<string, unknown>) {
  const was: Record<string, unknown> = {}
  const now: Record<string, unknown> = {}
  for (const key of Object.keys(after)) {
    if (!same(before[key], after[key])) {
      was[key] = before[key] ?? null
      now[key] = after[key] ?? null
    }
  }
  return { before: was, after: now, changed: Object.keys(now).length > 0 }
}

/** One audit row, inside the transaction of the change it records. */
export async function writeAudit(tx: Tx | Db, entry: AuditEntry): Promise<void> {
  await tx.insert(auditLog).values({
    id: Bun.randomUUIDv7(),
    adminId: entry.adminId,
    action: entry.action,
    entity: entry.entity,
    entityId: entry.entityId,
    before: entry.before ?? null,
    after: entry.after ?? null,
    reason: entry.reason ?? null,
  })
}

export interface AuditQuery {
  admin_id?: string
  entity?: string
  entity_id?: string
  from?: string
  to?: string
}

/** Newest first (ties by id), filtered by user, entity (and id) and a [from, to) time range. */
export async function listAudit({ db }: Database, query: AuditQuery, page: PageRequest) {
  const conditions: (SQL | undefined)[] = [
    query.admin_id ? eq(auditLog.adminId, query.admin_id) : undefined,
    query.entity ? eq(auditLog.entity, query.entity) : undefined,
    query.entity_id ? eq(auditLog.entityId, query.entity_id) : undefined,
    query.from ? gte(auditLog.createdAt, new Date(query.from)) : undefined,
    query.to ? lt(auditLog.createdAt, new Date(query.to)) : undefined,
  ]
  const where = and(...conditions)
  const [rows, [{ total }]] = await Promise.all([
    db
      .select({
        id: auditLog.id,
        adminId: auditLog.adminId,
        username: adminUsers.username,
        action: auditLog.action,
        entity: auditLog.entity,
        entityId: auditLog.entityId,
        before: auditLog.before,
        after: auditLog.after,
        reason: auditLog.reason,
        createdAt: auditLog.createdAt,
      })
      .from(auditLog)
      .leftJoin(adminUsers, eq(adminUsers.id, auditLog.adminId))
      .where(where)
      .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
      .limit(page.limit)
      .offset(page.offset),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(auditLog)
      .where(where),
  ])
  return {
    items: rows.map((r) => ({
      id: r.id,
      admin_id: r.adminId,
      admin_username: r.username,
      action: r.action,
      entity: r.entity,
      entity_id: r.entityId,
      before: r.before,
      after: r.after,
      reason: r.reason,
      created_at: toIsoUtc(r.createdAt)!,
    })),
    total,
  }
}
