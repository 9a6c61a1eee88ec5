// `bun run stack`: the compose topology as local processes (see scripts/stack-lib.ts).
// Ctrl-C stops everything it started.
import { startStack } from './stack-lib'

const env = process.env
const gatewayPort = Number(env.GATEWAY_PORT || 8080)
if (!Number.isInteger(gatewayPort) || gatewayPort < 1 || gatewayPort > 65535) {
  console.error(`Invalid configuration: GATEWAY_PORT must be a port number, got "${env.GATEWAY_PORT}"`)
  process.exit(1)
}
function replicas(name: string, fallback: number): number {
  const value = Number(env[name] || fallback)
  if (!Number.isInteger(value) || value < 1 || value > 8) {
    console.error(`Invalid configuration: ${name} must be a whole number from 1 to 8, got "${env[name]}"`)
    process.exit(1)
  }
  return value
}
const s3 = env.S3_ENDPOINT
  ? {
      endpoint: env.S3_ENDPOINT,
      accessKey: env.S3_ACCESS_KEY ?? '',
      secretKey: env.S3_SECRET_KEY ?? '',
      bucket: env.S3_BUCKET || 'uploads',
    }
  : undefined

const stack = await startStack({
  gatewayPort,
  catalogReplicas: replicas('CATALOG_REPLICAS', 1),
  mediaReplicas: replicas('MEDIA_REPLICAS', 2),
  databaseUrl: env.DATABASE_URL || undefined,
  s3,
  seedDemo: env.SEED_DEMO ? !['0', 'false', 'no', 'off'].includes(env.SEED_DEMO.toLowerCase()) : true,
  adminUsername: env.ADMIN_USERNAME,
  adminPassword: env.ADMIN_PASSWORD,
  logLevel: env.LOG_LEVEL || 'info',
  // every other variable of the README's Environment table reaches the services as the user set it
  userEnv: env,
  log: (line) => console.log(`[stack] ${line}`),
}).catch((error) => {
  console.error(`[stack] ${error instanceof Error ? error.message : error}`)
  process.exit(1)
})

const { services } = stack
console.log(
  `[stack] catalog ${services.catalog.map((c) => c.url).join(', ')}, news ${services.news.url}, admin ${services.admin.url}`,
)
console.log(`[stack] media ${services.media.map((m) => m.url).join(', ')}, docs ${services.docs.url}`)
console.log(
  `[stack] logs in ${stack.workDir}; gateway ${stack.gateway} (docs at ${stack.gateway}/docs). Ctrl-C stops everything.`,
)

let stopping = false
async function shutdown() {
  if (stopping) return
  stopping = true
  console.log('[stack] stopping')
  await stack.stop()
  process.exit(0)
}
process.on('SIGINT', () => void shutdown())
process.on('SIGTERM', () => void shutdown())
// a service that dies is reported, not restarted: the gateway routes around a dead replica
for (const s of [...services.catalog, services.news, services.admin, services.docs, ...services.media])
  s.proc.exited.then((code) => {
    if (!stopping) console.log(`[stack] ${s.name} exited (${code}); see ${s.logFile}`)
  })
