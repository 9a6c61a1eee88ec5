import type { Config } from '@app/kit'

export interface DocsDeps {
  /** Base URLs of the services whose /api/openapi.json are merged. */
  upstreams: string[]
  /** How long a merged document is reused before the services are asked again. */
  cacheMs: number
  fetch?: typeof fetch
}

const DEFAULT_UPSTREAMS = 'http://catalog:3000,http://news:3000,http://media:3000,http://admin:3000'

export async function docsDepsFromConfig(
  _config: Config,
  env: Record<string, string | undefined> = process.env,
): Promise<DocsDeps> {
  const upstreams = (env.DOCS_UPSTREAMS || DEFAULT_UPSTREAMS)
    .split(',')
    .map((s) => s.trim().replace(/\/+$/, ''))
    .filter(Boolean)
  for (const u of upstreams) {
    try {
      new URL(u)
    } catch {
      console.error(`Invalid configuration: DOCS_UPSTREAMS entry "${u}" is not a URL`)
      process.exit(1)
    }
  }
  return { upstreams, cacheMs: 30_000 }
}
