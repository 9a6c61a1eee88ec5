/**
 * The client's address. The peer address is used unless it is a trusted proxy, in which case
 * the right-most X-Forwarded-For entry that is not itself a trusted proxy is the client
 * (entries left of it could be forged by the client). `*` trusts every peer (tests, or a
 * deployment where only the gateway can reach the service).
 */
export function clientAddress(
  request: Request,
  server: { requestIP(request: Request): { address: string } | null } | null | undefined,
  trustedProxies: string[],
): string {
  const peer = normalize(server?.requestIP(request)?.address ?? 'unknown')
  const trusted = (ip: string) => trustedProxies.includes('*') || trustedProxies.includes(ip)
  if (!trusted(peer)) return peer
  const forwarded = (request.headers.get('x-forwarded-for') ?? '')
    .split(',')
    .map((s) => normalize(s.trim()))
    .filter(Boolean)
  for (let i = forwarded.length - 1; i >= 0; i--) {
    if (!trusted(forwarded[i]) || i === 0) return forwarded[i]
  }
  return peer
}

function normalize(ip: string): string {
  return ip.startsWith('::ffff:') ? ip.slice(7) : ip
}
