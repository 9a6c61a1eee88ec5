// Runs the real script in a child process, against this test's own PostgreSQL database when
// DATABASE_URL is set, or a fresh PGlite directory otherwise (the script's two modes).
import { afterAll, beforeAll, describe, expect, test, setDefaultTimeout } from 'bun:test'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import { createDb, type Database } from '@app/db'
import { createTestDatabase, type TestDatabase } from '@app/db/testing'
import { parseArgs, UsageError } from './create-admin'

// argon2id costs ~200 ms per login and PGlite seconds to start: generous on a busy machine
setDefaultTimeout(60_000)

const SCRIPT = join(import.meta.dir, 'create-admin.ts')
let dataDir: string
let testDb: TestDatabase | undefined

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'admin-cli-'))
  if (process.env.DATABASE_URL) testDb = await createTestDatabase()
}, 60_000)
afterAll(async () => {
  await testDb?.close()
  rmSync(dataDir, { recursive: true, force: true })
})

/** The environment of the script: our test database, and nothing inherited about admins. */
function scriptEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', DATA_DIR: dataDir, ...extra }
  if (testDb?.url) env.DATABASE_URL = testDb.url
  return env
}

async function run(args: string[], options: { stdin?: string; env?: Record<string, string> } = {}) {
  const child = Bun.spawn(['bun', SCRIPT, ...args], {
    env: scriptEnv(options.env),
    stdin: options.stdin === undefined ? 'ignore' : new Blob([options.stdin]),
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const [stdout, stderr, code] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ])
  return { stdout, stderr, code }
}

/** Reads the admin row the script wrote, through a connection of our own. */
async function adminRow(username: string) {
  let database: Database
  if (testDb) database = testDb
  else database = await createDb(undefined, { dataDir: join(dataDir, 'pglite') })
  try {
    const rows = await database.rows<{ name: string; role: string; password_hash: string }>(
      sql`select name, role, password_hash from admin_users where username = ${username}`,
    )
    return rows[0]
  } finally {
    if (!testDb) await database.close()
  }
}

describe('parseArgs', () => {
  test('username and --name', () => {
    expect(parseArgs(['sari', '--name', 'Sari W'])).toEqual({ username: 'sari', name: 'Sari W', help: false })
    expect(parseArgs(['--name=Sari W', 'sari'])).toEqual({ username: 'sari', name: 'Sari W', help: false })
    expect(parseArgs([])).toEqual({ username: undefined, name: undefined, help: false })
  })

  test('a password on the command line is refused', () => {
    for (const argv of [['sari', 'rahasia-panjang-123'], ['sari', '--password', 'x'], ['--password=x'], ['-p', 'x']])
      expect(() => parseArgs(argv)).toThrow(UsageError)
  })
})

describe('bun run admin:create', () => {
  test('refuses a password given as an argument, before touching any database', async () => {
    const res = await run(['sari', 'rahasia-panjang-123'], { stdin: 'rahasia-panjang-123\n' })
    expect(res.code).toBe(2)
    expect(res.stderr).toContain('Password tidak boleh diberikan lewat argumen')
    expect(existsSync(join(dataDir, 'pglite'))).toBe(false)
  })

  test('refuses a short password and a bad username', async () => {
    const short = await run(['sari'], { stdin: 'pendek\n' })
    expect(short.code).toBe(2)
    expect(short.stderr).toContain('minimal 12')
    const bad = await run(['sa ri!'], { stdin: 'rahasia-panjang-123\n' })
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('Username')
    const none = await run([], { stdin: 'rahasia-panjang-123\n' })
    expect(none.code).toBe(2)
  })

  test('creates an admin from stdin (migrating a new database first), then resets it', async () => {
    const created = await run(['sari', '--name', 'Sari Wulandari'], { stdin: 'rahasia-panjang-123\n' })
    expect(created.stderr).toBe('')
    expect(created.code).toBe(0)
    expect(created.stdout).toContain('Admin "sari" dibuat')
    const row = await adminRow('sari')
    expect(row).toMatchObject({ name: 'Sari Wulandari', role: 'owner' })
    expect(row.password_hash).toStartWith('$argon2id$')
    expect(await Bun.password.verify('rahasia-panjang-123', row.password_hash)).toBe(true)
    // the trailing newline of the pipe is not part of the password
    expect(await Bun.password.verify('rahasia-panjang-123\n', row.password_hash)).toBe(false)

    const reset = await run(['sari'], { stdin: 'password-baru-yang-panjang\r\n' })
    expect(reset.code).toBe(0)
    expect(reset.stdout).toContain('direset')
    const after = await adminRow('sari')
    expect(await Bun.password.verify('password-baru-yang-panjang', after.password_hash)).toBe(true)
    expect(after.name).toBe('Sari Wulandari')
  }, 60_000)

  test('takes ADMIN_USERNAME and ADMIN_PASSWORD from the environment', async () => {
    const res = await run([], { env: { ADMIN_USERNAME: 'dari-env', ADMIN_PASSWORD: 'password-dari-env-1' } })
    expect(res.code).toBe(0)
    const row = await adminRow('dari-env')
    expect(await Bun.password.verify('password-dari-env-1', row.password_hash)).toBe(true)
  }, 60_000)
})
