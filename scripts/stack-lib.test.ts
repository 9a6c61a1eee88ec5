import { expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { freePort } from './stack-lib'

test('freePort: never the same port twice, below the outgoing-connection range, and bindable when handed out', () => {
  const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0])
  const ports = Array.from({ length: 300 }, () => freePort())
  expect(new Set(ports).size).toBe(ports.length)
  for (const port of ports) {
    expect(port).toBeGreaterThanOrEqual(1024)
    // (a machine whose outgoing range starts near 1024 leaves no room below it: the kernel chooses)
    if (low > 2100) expect(port).toBeLessThan(low)
  }
  // the last one is still free: a server can listen on it
  const server = Bun.serve({ port: ports.at(-1)!, hostname: '127.0.0.1', fetch: () => new Response('ok') })
  expect(server.port).toBe(ports.at(-1)!)
  server.stop(true)
})
