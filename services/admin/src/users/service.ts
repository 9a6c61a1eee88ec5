import { and, count, eq, isNull } from 'drizzle-orm'
import { adminSessions, adminUsers, type Database } from '@app/db'
import type { Logger } from '@app/kit'

export async function createOrResetAdmin(
  { db }: Database,
  input: { username: string; password: string; name?: string; role?: string },
): Promise<'created' | 'reset'> {
  const passwordHash = await Bun.password.hash(input.password, { algorithm: 'argon2id' })
  const [existing] = await db.select({ id: adminUsers.id }).from(adminUsers).where(eq(adminUsers.username, input.username))
  if (existing) {
    await db.update(adminUsers).set({ passwordHash, updatedAt: new Date() }).where(eq(adminUsers.id, existing.id))
    // a new password ends every session opened with the old one
    await db
      .update(adminSessions)
      .set({ revokedAt: new Date() })
      .where(and(eq(adminSessions.userId, existing.id), isNull(adminSessions.revokedAt)))
    return 'reset'
  }
  await db.insert(adminUsers).values({
    id: Bun.randomUUIDv7(),
    username: input.username,
    name: input.name ?? input.username,
    role: input.role ?? 'owner',
    passwordHash,
  })
  return 'created'
}

/**
 * First-start bootstrap. With ADMIN_USERNAME/ADMIN_PASSWORD that admin is created when it does
 * not exist yet (an existing one is left alone). Without them, and only while there is no admin
 * at all, an `admin` user with a generated password is created and the password printed once.
 * There is never a default password.
 */
export async function bootstrapAdmin(
  database: Database,
  env: { adminUsername?: string; adminPassword?: string },
  logger: Logger,
): Promise<void> {
  const { db } = database
  if (env.adminUsername && env.adminPassword) {
    const [existing] = await db.select({ id: adminUsers.id }).from(adminUsers).where(eq(adminUsers.username, env.adminUsername))
    if (existing) return
    const passwordHash = await Bun.password.hash(env.adminPassword, { algorithm: 'argon2id' })
    const inserted = await db
      .insert(adminUsers)
      .values({ id: Bun.randomUUIDv7(), username: env.adminUsername, name: env.adminUsername, role: 'owner', passwordHash })
      .onConflictDoNothing()
      .returning({ id: adminUsers.id })
    if (inserted.length) logger.info('admin created from ADMIN_USERNAME', { username: env.adminUsername })
    return
  }
  const [{ n }] = await db.select({ n: count() }).from(adminUsers)
  if (n > 0) return
  const password = Buffer.from(crypto.getRandomValues(new Uint8Array(18))).toString('base64url')
  const passwordHash = await Bun.password.hash(password, { algorithm: 'argon2id' })
  const inserted = await db
    .insert(adminUsers)
    .values({ id: Bun.randomUUIDv7(), username: 'admin', name: 'Administrator', role: 'owner', passwordHash })
    .onConflictDoNothing()
    .returning({ id: adminUsers.id })
  if (inserted.length)
    console.log(
      `\n  Admin pertama dibuat. Username: admin  Password: ${password}\n  Simpan sekarang: password ini tidak akan ditampilkan lagi (ganti dengan: bun run admin:create).\n`,
    )
}
