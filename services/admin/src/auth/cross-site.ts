/**
 * True when a browser says this request comes from another origin: `Sec-Fetch-Site` other than
 * `same-origin` or `none` (so `same-site` and `cross-site` are refused), or an `Origin` whose
 * host (with port) is not the host the request was sent to. Requests without those headers
 * (curl, server-to-server) are not browser requests from a page and pass.
 *
 * Behind a trusted proxy that rewrites Host, its `X-Forwarded-Host` is accepted too.
 */
export function isCrossSite(request: Request, viaTrustedProxy: boolean): boolean {
  const site = request.headers.get('sec-fetch-site')?.trim().toLowerCase()
  if (site && site !== 'same-origin' && site !== 'none') return true
  const origin = request.headers.get('origin')
  if (origin === null) return false
  let originHost: string
  try {
    // "null" (sandboxed frames, some redirects) does not parse and is refused
    const parsed = new URL(origin)
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return true
    originHost = parsed.host.toLowerCase()
  } catch {
    return true
  }
  const hosts = [new URL(request.url).host, request.headers.get('host')]
  if (viaTrustedProxy) hosts.push(...(request.headers.get('x-forwarded-host') ?? '').split(','))
  return !hosts.some((h) => h && h.trim().toLowerCase() === originHost)
}

/** Whether the direct peer is one of the configured trusted proxies. */
export function peerIsTrusted(
  request: Request,
  server: { requestIP(request: Request): { address: string } | null } | null | undefined,
  trustedProxies: string[],
): boolean {
  if (trustedProxies.includes('*')) return true
  const peer = server?.requestIP(request)?.address
  if (!peer) return false
  return trustedProxies.includes(peer) || trustedProxies.includes(peer.replace(/^::ffff:/, ''))
}
