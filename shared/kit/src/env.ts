import { parseCorsOrigins } from './cors'
/** Invalid configuration: the process prints this one line and stops. */
export class ConfigError extends Error {}

export interface Config {
  port: number
  dataDir: string
  databaseUrl?: string
  /**
   * A streaming replica for public reads (catalog and news GET routes); writes, LISTEN/NOTIFY,
   * acks, rate limits and admin stay on `databaseUrl` (read-replica.ts).
   */
  databaseReadUrl?: string
  /** OTLP/HTTP base URL for traces (OTEL_EXPORTER_OTLP_ENDPOINT); unset: no tracing at all. */
  otlpEndpoint?: string
  /**
   * Share of new traces recorded (OTEL_TRACES_SAMPLER=parentbased_traceidratio with
   * OTEL_TRACES_SAMPLER_ARG); a caller's sampled flag is always followed. Default 1.
   */
  traceSampleRatio: number
  s3?: { endpoint: string; accessKey: string; secretKey: string; bucket: string; region: string }
  publicMediaUrl?: string
  adminUsername?: string
  adminPassword?: string
  cookieSecure: boolean
  seedDemo: boolean
  trustedProxies: string[]
  submitLimitPerHour: number
  /** Prepared statements on PostgreSQL (off behind a pooler that cannot keep them). */
  databasePrepare: boolean
  /**
   * Connections of the catalog's public-read pool on the primary (besides the main pool): few, so
   * that under a read load writes are not queued behind reads inside PostgreSQL.
   */
  databaseReadPool: number
  /** The catalog keeps the published events' list keys in memory (LIST_INDEX, default on). */
  listIndex: boolean
  /** Bytes of public answers each catalog/news process keeps in memory. */
  responseCacheBytes: number
  uploadLimitPerMinute: number
  checkFileLimitPerMinute: number
  loginMaxFailures: number
  logLevel: 'info' | 'warn' | 'error' | 'silent'
  /** On SIGTERM, how long /ready answers 503 before the listener closes (for the gateway to notice). */
  shutdownDelayMs: number
  /** Browser origins allowed to submit, upload and use the admin API (public reads: any origin). */
  corsOrigins: string[]
}

type Env = Record<string, string | undefined>

/**
 * DATABASE_READ_POOL's default. Measured on 2 cores under the mix with 5 writes/s (bench:real,
 * alternated): 8 connections gave submissions a p99 of 484-753 ms, 4 gave 212-296 ms, for the
 * same read throughput (PostgreSQL shares its CPU among every busy backend, the writer's included).
 */
export const DEFAULT_READ_POOL = 4

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]
  if (raw === undefined || raw === '') return fallback
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max)
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}, got "${raw}"`)
  return Number(raw)
}

function flag(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.toLowerCase()
  if (raw === undefined || raw === '') return fallback
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true
  if (['0', 'false', 'no', 'off'].includes(raw)) return false
  throw new ConfigError(`${name} must be true or false, got "${env[name]}"`)
}

function url(env: Env, name: string, protocols: string[]): string | undefined {
  const raw = env[name]
  if (raw === undefined || raw === '') return undefined
  let parsed: URL
  try {
    parsed = new URL(raw)
  } catch {
    throw new ConfigError(`${name} is not a valid URL`)
  }
  if (!protocols.includes(parsed.protocol)) throw new ConfigError(`${name} must start with ${protocols.join(' or ')}`)
  return raw
}

/**
 * Reads and validates the whole environment once. Every service reads the same variables and
 * uses what it needs; an invalid value throws a ConfigError naming the variable.
 */
export function readConfig(env: Env = process.env): Config {
  const port = integer(env, 'PORT', 3000, 0, 65535)
  const databaseUrl = url(env, 'DATABASE_URL', ['postgres:', 'postgresql:'])
  const databaseReadUrl = url(env, 'DATABASE_READ_URL', ['postgres:', 'postgresql:'])
  if (databaseReadUrl && !databaseUrl) throw new ConfigError('DATABASE_READ_URL needs DATABASE_URL (the primary) to be set too')
  const otlpEndpoint = url(env, 'OTEL_EXPORTER_OTLP_ENDPOINT', ['http:', 'https:'])
  const sampler = env.OTEL_TRACES_SAMPLER || 'parentbased_always_on'
  if (!['parentbased_always_on', 'parentbased_traceidratio'].includes(sampler))
    throw new ConfigError(`OTEL_TRACES_SAMPLER must be parentbased_always_on or parentbased_traceidratio, got "${sampler}"`)
  let traceSampleRatio = 1
  if (sampler === 'parentbased_traceidratio') {
    const raw = env.OTEL_TRACES_SAMPLER_ARG ?? ''
    traceSampleRatio = raw === '' ? 1 : Number(raw)
    if (!/^(0(\.\d+)?|1(\.0+)?)$/.test(raw || '1'))
      throw new ConfigError(`OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1, got "${raw}"`)
  }
  const s3Endpoint = url(env, 'S3_ENDPOINT', ['http:', 'https:'])
  let s3: Config['s3']
  if (s3Endpoint) {
    const accessKey = env.S3_ACCESS_KEY ?? ''
    const secretKey = env.S3_SECRET_KEY ?? ''
    if (!accessKey || !secretKey) throw new ConfigError('S3_ACCESS_KEY and S3_SECRET_KEY are required when S3_ENDPOINT is set')
    const bucket = env.S3_BUCKET || 'uploads'
    if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket))
      throw new ConfigError(`S3_BUCKET "${bucket}" is not a valid bucket name`)
    s3 = { endpoint: s3Endpoint, accessKey, secretKey, bucket, region: env.S3_REGION || 'us-east-1' }
  }
  const publicMediaUrl = url(env, 'PUBLIC_MEDIA_URL', ['http:', 'https:'])
  const adminUsername = env.ADMIN_USERNAME || undefined
  const adminPassword = env.ADMIN_PASSWORD || undefined
  if (adminUsername && !/^[a-zA-Z0-9._-]{3,50}$/.test(adminUsername))
    throw new ConfigError('ADMIN_USERNAME must be 3-50 letters, digits, dots, dashes or underscores')
  if (adminPassword && adminPassword.length < 12) throw new ConfigError('ADMIN_PASSWORD must be at least 12 characters')
  if (Boolean(adminUsername) !== Boolean(adminPassword))
    throw new ConfigError('ADMIN_USERNAME and ADMIN_PASSWORD must be set together')
  const logLevel = (env.LOG_LEVEL || 'info') as Config['logLevel']
  if (!['info', 'warn', 'error', 'silent'].includes(logLevel))
    throw new ConfigError(`LOG_LEVEL must be info, warn, error or silent, got "${env.LOG_LEVEL}"`)
  const trustedProxies = (env.TRUSTED_PROXIES ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
  for (const p of trustedProxies)
    if (p !== '*' && !/^[0-9a-fA-F:.]+$/.test(p)) throw new ConfigError(`TRUSTED_PROXIES entry "${p}" is not an IP address or *`)
  let corsOrigins: string[]
  try {
    corsOrigins = parseCorsOrigins(env.CORS_ORIGINS)
  } catch (error) {
    throw new ConfigError((error as Error).message)
  }
  return {
    corsOrigins,
    port,
    dataDir: env.DATA_DIR || './data',
    databaseUrl,
    databaseReadUrl,
    otlpEndpoint,
    traceSampleRatio,
    s3,
    publicMediaUrl,
    adminUsername,
    adminPassword,
    cookieSecure: flag(env, 'COOKIE_SECURE', false),
    seedDemo: flag(env, 'SEED_DEMO', !databaseUrl),
    trustedProxies,
    submitLimitPerHour: integer(env, 'SUBMIT_LIMIT_PER_HOUR', 10, 1, 1_000_000),
    databasePrepare: flag(env, 'DATABASE_PREPARE', true),
    databaseReadPool: integer(env, 'DATABASE_READ_POOL', DEFAULT_READ_POOL, 1, 100),
    listIndex: flag(env, 'LIST_INDEX', true),
    responseCacheBytes: integer(env, 'RESPONSE_CACHE_MB', 32, 0, 4096) * 1024 * 1024,
    uploadLimitPerMinute: integer(env, 'UPLOAD_LIMIT_PER_MINUTE', 20, 1, 1_000_000),
    checkFileLimitPerMinute: integer(env, 'CHECK_FILE_LIMIT_PER_MINUTE', 60, 1, 1_000_000),
    loginMaxFailures: integer(env, 'LOGIN_MAX_FAILURES', 5, 1, 1000),
    logLevel,
    shutdownDelayMs: integer(env, 'SHUTDOWN_DELAY_MS', 0, 0, 60_000),
  }
}

/** For main.ts: the config, or one line on stderr and exit code 1. */
export function readConfigOrExit(env: Env = process.env): Config {
  try {
    return readConfig(env)
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`Invalid configuration: ${error.message}`)
      process.exit(1)
    }
    throw error
  }
}
