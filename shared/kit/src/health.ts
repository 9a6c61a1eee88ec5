import { Elysia, t } from 'elysia'
import { envelope } from './errors'

export type ReadinessCheck = () => Promise<unknown>

const CHECK_TIMEOUT_MS = 2000

async function run(check: ReadinessCheck): Promise<boolean> {
  let timer: Timer | undefined
  try {
    await Promise.race([
      check(),
      new Promise((_, reject) => (timer = setTimeout(() => reject(new Error('timeout')), CHECK_TIMEOUT_MS))),
    ])
    return true
  } catch {
    return false
  } finally {
    clearTimeout(timer)
  }
}

/**
 * `GET /health`: the process is alive. `GET /ready`: every dependency answers within 2 s
 * (503 envelope naming the failing ones otherwise), and false once shutdown has begun so a
 * load balancer stops sending work before the process exits.
 */
export const health = (service: string, checks: Record<string, ReadinessCheck>, isDraining: () => boolean = () => false) =>
  new Elysia({ name: 'kit.health', seed: service })
    .get('/health', () => ({ success: true as const, status: 'ok', service }), {
      detail: { tags: ['Sistem'], summary: 'Proses hidup' },
      response: t.Object({ success: t.Literal(true), status: t.String(), service: t.String() }),
    })
    .get(
      '/ready',
      async () => {
        const names = Object.keys(checks)
        const results = await Promise.all(names.map((n) => run(checks[n])))
        const status = Object.fromEntries(names.map((n, i) => [n, results[i] ? 'ok' : 'down']))
        if (isDraining()) return envelope(503, 'Layanan sedang dihentikan')
        if (results.every(Boolean)) return { success: true as const, status: 'ready', service, checks: status }
        const down = names.filter((_, i) => !results[i])
        return envelope(
          503,
          `Layanan belum siap: ${down.join(', ')} tidak dapat dihubungi`,
          down.map((field) => ({ field, message: 'tidak dapat dihubungi' })),
        )
      },
      // for the orchestrator and the gateway's health checks, not routed by the gateway: not in the
      // public document (API9: the document lists what the gateway exposes)
      { detail: { tags: ['Sistem'], summary: 'Siap melayani (database, penyimpanan)', hide: true } },
    )
