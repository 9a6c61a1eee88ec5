// The production topology as local processes: PostgreSQL (given, or a throwaway cluster),
// the four services (media twice), the docs aggregator and Caddy in front. Used by
// `bun run stack` and by the end-to-end tests, which also stop and start parts of it.
import type { Subprocess } from 'bun'
import {
  appendFileSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

export const repoRoot = resolve(import.meta.dir, '..')

/** Ports this process has handed out: a port is free again once its probe stops, and the kernel may offer it twice. */
const handedOut = new Set<number>()

/** The first port of the kernel's range for outgoing connections (those never take a port below it). */
function ephemeralLow(): number {
  try {
    return Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]) || 32768
  } catch {
    return 32768
  }
}

/**
 * A port no process listens on now, for a service about to start. Drawn below the range of
 * outgoing connections, so no client socket takes it before the service binds, and never one this
 * process handed out before: with the kernel's own choice (port 0) two calls in a row could get
 * the same port, and under load a port was taken meanwhile by a connection's local end (CI: one
 * media replica of a stack never bound, and its uploads reached another service: 404).
 */
export function freePort(): number {
  const high = ephemeralLow() - 1
  const low = Math.max(1024, high - 12_000)
  for (let attempt = 0; attempt < 200 && high - low > 1000; attempt++) {
    const port = low + Math.floor(Math.random() * (high - low))
    if (handedOut.has(port)) continue
    try {
      Bun.serve({ port, hostname: '127.0.0.1', fetch: () => new Response() }).stop(true)
    } catch {
      continue
    }
    handedOut.add(port)
    return port
  }
  // no room below that range (or all of it busy): the kernel's choice, still never one handed out
  for (let attempt = 0; attempt < 100; attempt++) {
    const server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response() })
    const port = server.port!
    server.stop(true)
    if (handedOut.has(port)) continue
    handedOut.add(port)
    return port
  }
  throw new Error('no free port found')
}

async function waitFor(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return
    await Bun.sleep(100)
  }
  throw new Error(`${what} not ready within ${timeoutMs} ms`)
}

const answers = (url: string) => async () => (await fetch(url, { signal: AbortSignal.timeout(1000) })).ok

// ------------------------------------------------------------------ PostgreSQL

function pgBin(): string | null {
  const fromConfig = Bun.spawnSync(['pg_config', '--bindir'], { stderr: 'ignore' })
  const dir = fromConfig.success ? fromConfig.stdout.toString().trim() : ''
  if (dir && existsSync(join(dir, 'initdb'))) return dir
  const which = Bun.which('initdb')
  if (which) return resolve(which, '..')
  const debian = '/usr/lib/postgresql'
  if (existsSync(debian)) {
    const versions = readdirSync(debian).sort((a, b) => Number(b) - Number(a))
    for (const v of versions) if (existsSync(join(debian, v, 'bin', 'initdb'))) return join(debian, v, 'bin')
  }
  return null
}

const isRoot = () => process.getuid?.() === 0
// initdb and postgres refuse to run as root
const asPostgres = (cmd: string[]) => (isRoot() ? ['runuser', '-u', 'postgres', '--', ...cmd] : cmd)

export interface Cluster {
  url: string
  /** Its data directory (postmaster.pid is there). */
  dataDir: string
  start(): Promise<void>
  /** `fast` (default) ends the sessions with FATAL 57P01; `immediate` kills them without a word. */
  stop(mode?: 'fast' | 'immediate'): Promise<void>
  destroy(): Promise<void>
}

/** A throwaway PostgreSQL cluster on 127.0.0.1 (trust auth), or null when no binaries exist. */
export async function createCluster(workDir: string): Promise<Cluster | null> {
  const bin = pgBin()
  if (!bin) return null
  // as root the server runs as `postgres`, which must be able to enter its directory: a fresh one
  // in the system temp folder (a caller's workDir may sit in a folder only root can enter)
  const clusterDir = isRoot() ? mkdtempSync(join(tmpdir(), 'stack-pg-')) : workDir
  const dataDir = join(clusterDir, 'pg')
  mkdirSync(dataDir, { recursive: true })
  if (isRoot()) {
    chownSync(clusterDir, uidOf('postgres'), -1)
    chownSync(dataDir, uidOf('postgres'), -1)
  }
  const port = freePort()
  const init = Bun.spawnSync(asPostgres([join(bin, 'initdb'), '-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8']), {
    stdout: 'ignore',
    stderr: 'pipe',
  })
  if (!init.success) throw new Error(`initdb failed: ${init.stderr.toString()}`)
  const options = `-c listen_addresses=127.0.0.1 -c port=${port} -c unix_socket_directories='' -c fsync=off -c max_connections=200`
  const ctl = async (...args: string[]) => {
    const proc = Bun.spawn(asPostgres([join(bin, 'pg_ctl'), '-D', dataDir, ...args]), { stdout: 'ignore', stderr: 'pipe' })
    if ((await proc.exited) !== 0) throw new Error(`pg_ctl ${args[0]} failed: ${await new Response(proc.stderr).text()}`)
  }
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`
  const cluster: Cluster = {
    url,
    dataDir,
    start: () => ctl('start', '-w', '-t', '60', '-l', join(clusterDir, 'pg.log'), '-o', options),
    stop: (mode = 'fast') => ctl('stop', '-m', mode, '-w'),
    destroy: async () => {
      await cluster.stop().catch(() => {})
      rmSync(clusterDir === workDir ? dataDir : clusterDir, { recursive: true, force: true })
    },
  }
  await cluster.start()
  return cluster
}

function uidOf(user: string): number {
  const out = Bun.spawnSync(['id', '-u', user])
  if (!out.success) throw new Error(`no OS user ${user}`)
  return Number(out.stdout.toString().trim())
}

// ------------------------------------------------------------------ processes

/** Set per process by the stack (listen port, docs upstreams), never taken from the user. */
const STACK_CHOSEN = new Set(['PORT', 'DOCS_UPSTREAMS'])

/**
 * A service's environment: the stack's defaults, overridden by the user's own variables, overridden
 * by what the stack must choose itself (`forced`: database URL, data dir, S3 settings it was given).
 * Caddy on loopback is always a trusted proxy, whatever else the user trusts.
 */
export function serviceEnv(
  user: Record<string, string | undefined>,
  forced: Record<string, string>,
  defaults: Record<string, string>,
): Record<string, string> {
  const env: Record<string, string> = { ...defaults }
  for (const [key, value] of Object.entries(user)) if (value !== undefined && !STACK_CHOSEN.has(key)) env[key] = value
  Object.assign(env, forced)
  const trusted = (user.TRUSTED_PROXIES ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
  if (!trusted.includes('*')) for (const loopback of ['127.0.0.1', '::1']) if (!trusted.includes(loopback)) trusted.push(loopback)
  env.TRUSTED_PROXIES = trusted.join(',')
  return env
}

export interface ServiceProcess {
  name: string
  port: number
  url: string
  proc: Subprocess
  env: Record<string, string>
  logFile: string
}

export interface StackOptions {
  gatewayPort?: number
  databaseUrl?: string
  s3?: { endpoint: string; accessKey: string; secretKey: string; bucket: string }
  mediaReplicas?: number
  catalogReplicas?: number
  /** News and admin replicas (1 each unless given): the fault tests stop each one in turn. */
  newsReplicas?: number
  adminReplicas?: number
  seedDemo?: boolean
  adminUsername?: string
  adminPassword?: string
  logLevel?: string
  workDir?: string
  /**
   * The user's environment (`bun run stack` passes process.env): every variable reaches every
   * service, except where the stack must choose (ports, data dir, database URL, upstreams).
   */
  userEnv?: Record<string, string | undefined>
  /** Extra environment for every service (wins over everything). */
  env?: Record<string, string>
  /**
   * How long a starting (or restarted) service may take to answer /ready, and the gateway to
   * answer (60 s by default; tests on a loaded machine give more: nine Bun processes starting
   * at once on two busy cores take a while).
   */
  readyTimeoutMs?: number
  log?: (line: string) => void
}

export interface Stack {
  gateway: string
  workDir: string
  databaseUrl: string
  cluster: Cluster | null
  services: Record<'news' | 'admin' | 'docs', ServiceProcess> & {
    catalog: ServiceProcess[]
    media: ServiceProcess[]
    /** Every news and admin replica (`news` and `admin` are the first of each). */
    newsReplicas: ServiceProcess[]
    adminReplicas: ServiceProcess[]
  }
  caddy: Subprocess
  /** Reloads Caddy's configuration in place (`caddy reload` over a loopback-only unix socket). */
  reloadGateway(): Promise<void>
  /** Starts a replacement process for a service that was stopped (same port and env). */
  restart(service: ServiceProcess): Promise<ServiceProcess>
  stop(): Promise<void>
}

function spawnLogged(name: string, cmd: string[], env: Record<string, string>, workDir: string) {
  const logFile = join(workDir, `${name}.log`)
  const fd = openSync(logFile, 'a')
  const proc = Bun.spawn(cmd, { cwd: repoRoot, env, stdin: 'ignore', stdout: fd, stderr: fd })
  // how it ended, in its own log: a process that dies of a signal (or exits without a word) says so
  void proc.exited.then((code) => {
    const line = { time: new Date().toISOString(), level: 'info', msg: 'process ended (stack)', code, signal: proc.signalCode }
    try {
      appendFileSync(logFile, `${JSON.stringify(line)}\n`)
    } catch {
      // the stack's directory is already gone
    }
  })
  return { proc, logFile }
}

export async function stopProcess(proc: Subprocess, graceMs = 10_000): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return
  proc.kill('SIGTERM')
  const timer = setTimeout(() => proc.kill('SIGKILL'), graceMs)
  await proc.exited
  clearTimeout(timer)
}

/** Starts the whole topology and waits until the gateway answers. */
export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const log = options.log ?? (() => {})
  const readyTimeoutMs = options.readyTimeoutMs ?? 60_000
  const workDir = options.workDir ?? mkdtempSync(join(tmpdir(), 'stack-'))
  mkdirSync(workDir, { recursive: true })
  const started: Subprocess[] = []
  let cluster: Cluster | null = null
  try {
    let databaseUrl = options.databaseUrl
    if (!databaseUrl) {
      cluster = await createCluster(workDir)
      if (!cluster) throw new Error('DATABASE_URL is not set and no PostgreSQL server binaries (initdb) were found')
      databaseUrl = cluster.url
      log(`throwaway PostgreSQL at ${databaseUrl}`)
    }
    const gatewayPort = options.gatewayPort ?? 8080
    const gateway = `http://127.0.0.1:${gatewayPort}`
    const mediaReplicas = options.mediaReplicas ?? 2
    const ports = {
      catalog: Array.from({ length: options.catalogReplicas ?? 1 }, () => freePort()),
      news: Array.from({ length: options.newsReplicas ?? 1 }, () => freePort()),
      admin: Array.from({ length: options.adminReplicas ?? 1 }, () => freePort()),
      docs: freePort(),
      media: Array.from({ length: mediaReplicas }, () => freePort()),
    }
    const baseEnv = serviceEnv(
      options.userEnv ?? {},
      {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: process.env.HOME ?? workDir,
        DATABASE_URL: databaseUrl,
        DATA_DIR: join(workDir, 'data'),
        ...(options.adminUsername ? { ADMIN_USERNAME: options.adminUsername, ADMIN_PASSWORD: options.adminPassword ?? '' } : {}),
        ...(options.s3
          ? {
              S3_ENDPOINT: options.s3.endpoint,
              S3_ACCESS_KEY: options.s3.accessKey,
              S3_SECRET_KEY: options.s3.secretKey,
              S3_BUCKET: options.s3.bucket,
            }
          : {}),
      },
      {
        PUBLIC_MEDIA_URL: `http://localhost:${gatewayPort}/media/`,
        LOG_LEVEL: options.logLevel ?? 'warn',
        // longer than Caddy's 2 s active health check: it stops routing here before the listener closes
        SHUTDOWN_DELAY_MS: '2500',
        SEED_DEMO: String(options.seedDemo ?? true),
      },
    )
    Object.assign(baseEnv, options.env)

    // migrations (and the demo data) once, before any service starts
    const migrate = Bun.spawn(['bun', 'run', 'shared/db/src/cli/' + (options.seedDemo === false ? 'migrate.ts' : 'seed.ts')], {
      cwd: repoRoot,
      env: baseEnv,
      stdout: 'ignore',
      stderr: 'pipe',
    })
    if ((await migrate.exited) !== 0) throw new Error(`migration failed: ${await new Response(migrate.stderr).text()}`)

    const spawnService = (name: string, service: string, port: number): ServiceProcess => {
      const env: Record<string, string> = { ...baseEnv, PORT: String(port) }
      if (service === 'docs')
        env.DOCS_UPSTREAMS = [ports.catalog[0], ports.news[0], ports.media[0], ports.admin[0]]
          .map((p) => `http://127.0.0.1:${p}`)
          .join(',')
      const { proc, logFile } = spawnLogged(name, ['bun', 'run', `services/${service}/src/main.ts`], env, workDir)
      started.push(proc)
      return { name, port, url: `http://127.0.0.1:${port}`, proc, env, logFile }
    }
    const replicaName = (service: string, i: number, count: number) =>
      count === 1 && service !== 'catalog' && service !== 'media' ? service : `${service}-${i + 1}`
    const newsReplicas = ports.news.map((p, i) => spawnService(replicaName('news', i, ports.news.length), 'news', p))
    const adminReplicas = ports.admin.map((p, i) => spawnService(replicaName('admin', i, ports.admin.length), 'admin', p))
    const services = {
      catalog: ports.catalog.map((p, i) => spawnService(`catalog-${i + 1}`, 'catalog', p)),
      news: newsReplicas[0],
      admin: adminReplicas[0],
      newsReplicas,
      adminReplicas,
      media: ports.media.map((p, i) => spawnService(`media-${i + 1}`, 'media', p)),
      docs: spawnService('docs', 'docs', ports.docs),
    }
    for (const s of [...services.catalog, ...newsReplicas, ...adminReplicas, ...services.media, services.docs])
      await waitFor(answers(`${s.url}/ready`), readyTimeoutMs, s.name)

    const hostPorts = (list: number[]) => list.map((p) => `127.0.0.1:${p}`).join(' ')
    const s3Url = options.s3 ? new URL(options.s3.endpoint) : null
    const caddyHome = join(workDir, 'caddy-home')
    mkdirSync(caddyHome, { recursive: true })
    const caddyEnv: Record<string, string> = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      // Caddy writes under $HOME/.config/caddy
      HOME: caddyHome,
      XDG_CONFIG_HOME: join(caddyHome, 'config'),
      XDG_DATA_HOME: join(caddyHome, 'data'),
      GATEWAY_PORT: String(gatewayPort),
      UPSTREAMS_MODE: 'static',
      CATALOG_UPSTREAMS: hostPorts(ports.catalog),
      NEWS_UPSTREAMS: hostPorts(ports.news),
      MEDIA_UPSTREAMS: hostPorts(ports.media),
      ADMIN_UPSTREAMS: hostPorts(ports.admin),
      DOCS_UPSTREAM: hostPorts([ports.docs]),
      MEDIA_FILES_UPSTREAMS: s3Url ? s3Url.host : hostPorts(ports.media),
      MEDIA_FILES_PREFIX: s3Url ? `/${options.s3!.bucket}` : '/media',
      // the admin API (config reloads) on a unix socket only this user can reach, never on TCP
      CADDY_ADMIN: `unix/${join(caddyHome, 'admin.sock')}`,
    }
    const { proc: caddy } = spawnLogged(
      'caddy',
      ['caddy', 'run', '--config', join(repoRoot, 'caddy/Caddyfile'), '--adapter', 'caddyfile'],
      caddyEnv,
      workDir,
    )
    started.push(caddy)
    await waitFor(answers(`${gateway}/api/stats`), readyTimeoutMs, 'gateway')
    log(`gateway at ${gateway}`)

    const stack: Stack = {
      gateway,
      workDir,
      databaseUrl,
      cluster,
      services,
      caddy,
      async reloadGateway() {
        const reload = Bun.spawn(
          [
            'caddy',
            'reload',
            '--config',
            join(repoRoot, 'caddy/Caddyfile'),
            '--adapter',
            'caddyfile',
            '--address',
            caddyEnv.CADDY_ADMIN,
            '--force',
          ],
          { cwd: repoRoot, env: caddyEnv, stdout: 'ignore', stderr: 'pipe' },
        )
        if ((await reload.exited) !== 0) throw new Error(`caddy reload failed: ${await new Response(reload.stderr).text()}`)
      },
      async restart(service) {
        await stopProcess(service.proc)
        const { proc, logFile } = spawnLogged(
          service.name,
          ['bun', 'run', `services/${service.name.replace(/-\d+$/, '')}/src/main.ts`],
          service.env,
          workDir,
        )
        started.push(proc)
        const replacement = { ...service, proc, logFile }
        await waitFor(answers(`${service.url}/ready`), readyTimeoutMs, service.name)
        // Caddy checks /ready every 2 s: give it one round to route here again
        await Bun.sleep(2500)
        return replacement
      },
      async stop() {
        await stopProcess(caddy)
        await Promise.all(started.map((p) => stopProcess(p)))
        if (cluster) await cluster.destroy()
        // a directory we made (logs, uploads) goes too; one the caller gave is theirs
        if (!options.workDir) rmSync(workDir, { recursive: true, force: true })
      },
    }
    return stack
  } catch (error) {
    await Promise.all(started.map((p) => stopProcess(p)))
    if (cluster) await cluster.destroy()
    if (!options.workDir) rmSync(workDir, { recursive: true, force: true })
    throw error
  }
}
