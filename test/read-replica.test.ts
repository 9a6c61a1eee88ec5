// DATABASE_READ_URL on two real PostgreSQL 15 clusters started here: a primary and a streaming
// replica (pg_basebackup -R) that replays every commit 1.5 s late (recovery_min_apply_delay), so
// reading it naively right after a write would miss the write. Submit on the catalog, approve on
// the admin service (both on the primary); the moment the approval answers, public GETs through
// the read path show the event (they went to the primary while the replica was behind), and once
// the replica has replayed the write, public reads go to the replica again.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from 'bun:test'
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import { createDb, migrateDb, seedDemo, type Database } from '@app/db'
import { createBaseApp, createLogger, createRateLimiter, readConfig, type ReadDatabase } from '@app/kit'
import { get, post } from '@app/kit/testing'
import { catalogDepsFromConfig, catalogService, type CatalogDeps } from '@app/catalog'
import { adminService } from '@app/admin'
import { loginAs, withCookie } from '../services/admin/src/testing'
import { freePort } from '../scripts/stack-lib'

setDefaultTimeout(60_000)

const APPLY_DELAY_MS = 1500
const bin = (() => {
  const root = '/usr/lib/postgresql'
  const version = existsSync(root)
    ? readdirSync(root)
        .sort()
        .reverse()
        .find((v) => existsSync(join(root, v, 'bin', 'initdb')))
    : undefined
  if (!version) throw new Error('PostgreSQL server binaries not found under /usr/lib/postgresql')
  return join(root, version, 'bin')
})()
const isRoot = process.getuid?.() === 0
// initdb and postgres refuse to run as root
const asPostgres = (cmd: string[]) => (isRoot ? ['runuser', '-u', 'postgres', '--', ...cmd] : cmd)

function run(cmd: string[]) {
  const out = Bun.spawnSync(asPostgres(cmd), { stdout: 'pipe', stderr: 'pipe' })
  if (!out.success) throw new Error(`${cmd[0]} failed: ${out.stderr.toString()}`)
}

const workDir = mkdtempSync('/tmp/deploy2-read-replica-')
const primaryDir = join(workDir, 'primary')
const replicaDir = join(workDir, 'replica')
const primaryPort = freePort()
const replicaPort = freePort()
const primaryUrl = `postgres://postgres@127.0.0.1:${primaryPort}/postgres`
const replicaUrl = `postgres://postgres@127.0.0.1:${replicaPort}/postgres`
const started: string[] = []
const common = (port: number) => `-c listen_addresses=127.0.0.1 -c port=${port} -c unix_socket_directories='' -c fsync=off`

let primary: Database
let replicaDirect: Database
let deps: CatalogDeps
let server: ReturnType<typeof build>

function build() {
  const logger = createLogger('silent')
  return createBaseApp({ service: 'all', logger, checks: {} })
    .use(catalogService({ ...deps, trustedProxies: ['*'] }))
    .use(
      adminService({
        database: primary,
        rateLimiter: deps.rateLimiter,
        trustedProxies: ['*'],
        cookieSecure: false,
        loginMaxFailures: 5,
      }),
    )
}

const routed = () => (deps.readDatabase as ReadDatabase).routed()

beforeAll(async () => {
  if (isRoot) chownSync(workDir, Number(Bun.spawnSync(['id', '-u', 'postgres']).stdout.toString().trim()), -1)
  run([join(bin, 'initdb'), '-D', primaryDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8'])
  run([
    join(bin, 'pg_ctl'),
    '-D',
    primaryDir,
    '-w',
    '-l',
    join(workDir, 'primary.log'),
    '-o',
    `${common(primaryPort)} -c wal_level=replica -c max_wal_senders=4`,
    'start',
  ])
  started.push(primaryDir)
  run([
    join(bin, 'pg_basebackup'),
    '-h',
    '127.0.0.1',
    '-p',
    String(primaryPort),
    '-U',
    'postgres',
    '-D',
    replicaDir,
    '-R',
    '-X',
    'stream',
  ])
  run([
    join(bin, 'pg_ctl'),
    '-D',
    replicaDir,
    '-w',
    '-l',
    join(workDir, 'replica.log'),
    '-o',
    `${common(replicaPort)} -c hot_standby=on -c recovery_min_apply_delay=${APPLY_DELAY_MS}ms`,
    'start',
  ])
  started.push(replicaDir)

  primary = await createDb(primaryUrl, { max: 5 })
  await migrateDb(primary)
  await seedDemo(primary)
  replicaDirect = await createDb(replicaUrl, { max: 2 })
  const config = readConfig({ DATABASE_URL: primaryUrl, DATABASE_READ_URL: replicaUrl })
  deps = await catalogDepsFromConfig(config, { database: primary, rateLimiter: createRateLimiter(primary) })
  server = build()
}, 120_000)

afterAll(async () => {
  deps?.listIndex?.close()
  await deps?.cache?.close()
  await deps?.readDatabase?.close()
  await replicaDirect?.close()
  await primary?.close()
  for (const dir of started.reverse())
    Bun.spawnSync(asPostgres([join(bin, 'pg_ctl'), '-D', dir, '-m', 'immediate', '-w', 'stop']))
  rmSync(workDir, { recursive: true, force: true })
}, 60_000)

test('the replica really is a replica, and really lags', async () => {
  const [{ recovering }] = await replicaDirect.rows<{ recovering: boolean }>(sql`select pg_is_in_recovery() as recovering`)
  expect(recovering).toBe(true)
  expect(readConfig({ DATABASE_URL: primaryUrl, DATABASE_READ_URL: replicaUrl }).databaseReadUrl).toBe(replicaUrl)
  expect(() => readConfig({ DATABASE_READ_URL: replicaUrl })).toThrow('DATABASE_READ_URL needs DATABASE_URL')
  expect(() => readConfig({ DATABASE_URL: primaryUrl, DATABASE_READ_URL: 'mysql://x' })).toThrow(
    'DATABASE_READ_URL must start with',
  )
})

test('public reads go to the replica once it has replayed the current version', async () => {
  const deadline = Date.now() + 30_000
  // distinct URLs: a cached answer reads no database at all
  let page = 1
  let res = await get(server, `/api/cities?limit=1&page=${page}`)
  while (routed().replica === 0 && Date.now() < deadline) {
    await Bun.sleep(200)
    res = await get(server, `/api/cities?limit=1&page=${++page}`)
  }
  expect(res.status).toBe(200)
  expect(routed().replica).toBeGreaterThan(0)
})

test('submit and approve on the primary: the public read path shows the event when the answer arrives', async () => {
  const [category] = await primary.rows<{ id: string; slug: string }>(sql`select id, slug from categories where slug = 'musik'`)
  const [city] = await primary.rows<{ id: string; slug: string }>(sql`select id, slug from cities order by name limit 1`)
  const listTotal = async () => (await get(server, `/api/events?kota=${city!.slug}&limit=100`)).body.pagination.total as number
  const before = await listTotal()

  const submitted = await post(
    server,
    '/api/events/submit',
    {
      title: 'Konser Uji Replika Baca',
      category_id: category!.id,
      city_id: city!.id,
      start_date: new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10),
      start_time: '19:00',
      organizer_name: 'Komunitas Uji Replika',
      contact_email: 'panitia@uji-replika.id',
    },
    { headers: { 'x-forwarded-for': '203.0.113.77' } },
  )
  expect(submitted.status).toBe(201)
  const event = submitted.body.event as { id: string; slug: string }
  const cookie = await loginAs(server, primary as never, { username: 'penguji-replika', password: 'replika-baca-12345' })
  const beforeApprove = routed()
  const approved = await post(server, `/api/admin/events/${event.id}/approve`, undefined, withCookie(cookie))
  expect(approved.status).toBe(200)

  // the answer has arrived: the read path shows the event at once...
  const detail = await get(server, `/api/events/${event.slug}`)
  expect(detail.status).toBe(200)
  expect(detail.body.event).toMatchObject({ id: event.id, title: 'Konser Uji Replika Baca' })
  expect(await listTotal()).toBe(before + 1)
  // ...although the replica has not replayed the approval yet (so a naive replica read would miss it)
  const [onReplica] = await replicaDirect.rows<{ status: string }>(sql`select status from events where id = ${event.id}`)
  expect(onReplica?.status ?? 'absent').not.toBe('published')
  // those reads went to the primary
  expect(routed().primary).toBeGreaterThan(beforeApprove.primary)

  // once the replica has replayed it, public reads are served by the replica again, with the event
  await Bun.sleep(APPLY_DELAY_MS + 500)
  const replicaBefore = routed().replica
  const fresh = await get(server, `/api/events?kota=${city!.slug}&limit=99`)
  expect(fresh.body.pagination.total).toBe(before + 1)
  expect(routed().replica).toBeGreaterThan(replicaBefore)
  const [replayed] = await replicaDirect.rows<{ status: string }>(sql`select status from events where id = ${event.id}`)
  expect(replayed?.status).toBe('published')
})
