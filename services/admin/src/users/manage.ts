// Owner-only user management and everyone's own password change.
import { and, asc, eq, isNull, ne, sql } from 'drizzle-orm'
import { adminSessions, adminUsers, sqlState, toIsoUtc, type Database } from '@app/db'
import { HttpError } from '@app/kit'
import { writeAudit, type Tx } from '../audit/service'
import type { AdminUser } from '../auth/service'

export const OWNER_ONLY = 'Hanya owner yang dapat mengelola pengguna'

export function requireOwner(admin: AdminUser): void {
  if (admin.role !== 'owner') throw new HttpError(403, OWNER_ONLY)
}

const userColumns = {
  id: adminUsers.id,
  username: adminUsers.username,
  name: adminUsers.name,
  role: adminUsers.role,
  disabledAt: adminUsers.disabledAt,
  createdAt: adminUsers.createdAt,
  lastSeenAt: sql<string | null>`(select max(s.last_seen_at) from admin_sessions s where s.user_id = ${adminUsers.id})`,
}

type UserRow = {
  id: string
  username: string
  name: string
  role: string
  disabledAt: Date | null
  createdAt: Date
  lastSeenAt: string | Date | null
}
const toUser = (r: UserRow) => ({
  id: r.id,
  username: r.username,
  name: r.name,
  role: r.role as 'owner' | 'editor',
  disabled: r.disabledAt !== null,
  created_at: toIsoUtc(r.createdAt)!,
  last_seen_at: r.lastSeenAt ? toIsoUtc(r.lastSeenAt) : null,
})

export async function listUsers({ db }: Database) {
  const rows = await db.select(userColumns).from(adminUsers).orderBy(asc(adminUsers.username))
  return rows.map(toUser)
}

async function findUser(tx: Tx | Database['db'], id: string) {
  const [row] = await tx.select(userColumns).from(adminUsers).where(eq(adminUsers.id, id))
  return row ? toUser(row) : null
}

const endSessions = (tx: Tx, userId: string, exceptSessionId?: string) =>
  tx
    .update(adminSessions)
    .set({ revokedAt: sql`now()` })
    .where(
      and(
        eq(adminSessions.userId, userId),
        isNull(adminSessions.revokedAt),
        exceptSessionId ? ne(adminSessions.id, exceptSessionId) : undefined,
      ),
    )

export async function createUser(
  database: Database,
  actor: AdminUser,
  input: { username: string; name?: string; password: string; role?: 'owner' | 'editor' },
) {
  requireOwner(actor)
  const passwordHash = await Bun.password.hash(input.password, { algorithm: 'argon2id' })
  try {
    return await database.db.transaction(async (tx) => {
      const id = Bun.randomUUIDv7()
      const role = input.role ?? 'editor'
      const name = input.name?.trim() || input.username
      await tx.insert(adminUsers).values({ id, username: input.username, name, role, passwordHash })
      await writeAudit(tx, {
        adminId: actor.id,
        action: 'create',
        entity: 'user',
        entityId: id,
        after: { username: input.username, name, role },
      })
      return (await findUser(tx, id))!
    })
  } catch (error) {
    if (sqlState(error) === '23505')
      throw new HttpError(409, `Username "${input.username}" sudah dipakai`, [
        { field: 'username', message: 'Username sudah dipakai' },
      ])
    throw error
  }
}

export async function updateUser(
  database: Database,
  actor: AdminUser,
  id: string,
  input: { name?: string; role?: 'owner' | 'editor'; disabled?: boolean; password?: string },
) {
  requireOwner(actor)
  const passwordHash = input.password ? await Bun.password.hash(input.password, { algorithm: 'argon2id' }) : undefined
  return database.db.transaction(async (tx) => {
    const [row] = await tx.select().from(adminUsers).where(eq(adminUsers.id, id)).for('update')
    if (!row) throw new HttpError(404, 'Pengguna tidak ditemukan')
    if (id === actor.id && (input.disabled === true || input.role === 'editor'))
      throw new HttpError(409, 'Anda tidak dapat menonaktifkan atau menurunkan peran akun Anda sendiri')
    const before: Record<string, unknown> = {}
    const after: Record<string, unknown> = {}
    const set: Partial<typeof adminUsers.$inferInsert> = {}
    if (input.name !== undefined && input.name.trim() !== row.name) {
      set.name = input.name.trim()
      before.name = row.name
      after.name = set.name
    }
    if (input.role !== undefined && input.role !== row.role) {
      set.role = input.role
      before.role = row.role
      after.role = input.role
    }
    if (input.disabled !== undefined && input.disabled !== (row.disabledAt !== null)) {
      set.disabledAt = input.disabled ? new Date() : null
      before.disabled = !input.disabled
      after.disabled = input.disabled
    }
    if (passwordHash) {
      set.passwordHash = passwordHash
      after.password = 'direset'
    }
    if (Object.keys(set).length) {
      await tx
        .update(adminUsers)
        .set({ ...set, updatedAt: sql`now()` as any })
        .where(eq(adminUsers.id, id))
      // disabling or a new password ends every session of that user at once
      if (input.disabled === true || passwordHash) await endSessions(tx, id)
      await writeAudit(tx, { adminId: actor.id, action: 'update', entity: 'user', entityId: id, before, after })
    }
    return (await findUser(tx, id))!
  })
}

/** The user's own password; the old one is required. Other sessions of the user end. */
export async function changeOwnPassword(
  database: Database,
  actor: AdminUser,
  sessionId: string,
  input: { old_password: string; new_password: string },
) {
  const [row] = await database.db.select({ hash: adminUsers.passwordHash }).from(adminUsers).where(eq(adminUsers.id, actor.id))
  const ok = row ? await Bun.password.verify(input.old_password, row.hash).catch(() => false) : false
  if (!ok) throw new HttpError(400, 'Password lama salah', [{ field: 'old_password', message: 'Password lama salah' }])
  if (input.old_password === input.new_password)
    throw new HttpError(400, 'Password baru harus berbeda dari password lama', [
      { field: 'new_password', message: 'Password baru harus berbeda' },
    ])
  const passwordHash = await Bun.password.hash(input.new_password, { algorithm: 'argon2id' })
  await database.db.transaction(async (tx) => {
    await tx
      .update(adminUsers)
      .set({ passwordHash, updatedAt: sql`now()` })
      .where(eq(adminUsers.id, actor.id))
    await endSessions(tx, actor.id, sessionId)
    await writeAudit(tx, {
      adminId: actor.id,
      action: 'password',
      entity: 'user',
      entityId: actor.id,
      after: { password: 'diganti' },
    })
  })
}
