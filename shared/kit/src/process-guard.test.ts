// The process guard in real processes: a lost connection that escapes (thrown where nobody
// catches it, or a rejection nobody handles) is logged and the process keeps running; any other
// escaped error is logged and ends the process with status 1, as without the guard.
import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { isConnectionLost } from '@app/db'

const here = import.meta.dir

// the faults happen after the module has been evaluated, as in a serving process (Bun reports an
// error escaping during a top-level await only when the module finishes)
const child = (thenABug: boolean, guarded = true) => `
import net from 'node:net'
import { guardProcess } from ${JSON.stringify(join(here, 'process-guard.ts'))}
import { createLogger } from ${JSON.stringify(join(here, 'request-log.ts'))}
${guarded ? `guardProcess(createLogger('error', 'guard-test'))` : ''}

setTimeout(async () => {
  // a real reset, as node:net reports it (the error postgres.js let escape)
  const server = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data: (s) => s.terminate() } })
  const reset = await new Promise((resolve) => {
    const socket = net.connect(server.port, '127.0.0.1', () => socket.write('x'))
    socket.once('error', resolve)
  })
  server.stop(true)
  // thrown where nobody catches it: an uncaught exception
  setTimeout(() => {
    throw reset
  })
  await Bun.sleep(50)
  // rejections nobody handles: the reset, and postgres.js's own closed-connection error
  Promise.reject(reset)
  Promise.reject(Object.assign(new Error('write CONNECTION_CLOSED 127.0.0.1:5432'), { code: 'CONNECTION_CLOSED' }))
  await Bun.sleep(100)
  console.log('alive')
  ${
    thenABug
      ? `Promise.reject(new TypeError('a bug'))
  await Bun.sleep(200)
  console.log('still alive after a bug')`
      : ''
  }
})
`

async function run(thenABug: boolean, guarded = true) {
  const proc = Bun.spawn(['bun', '-e', child(thenABug, guarded)], { stdout: 'pipe', stderr: 'pipe' })
  const [code, stdout, stderr] = await Promise.all([
    proc.exited,
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
  ])
  const logged = stderr
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { msg: string; code?: string; name?: string })
  return { code, stdout, logged }
}

describe('process guard', () => {
  test('a lost connection that escapes is logged and survived', async () => {
    const { code, stdout, logged } = await run(false)
    expect(stdout).toContain('alive')
    expect(code).toBe(0)
    expect(logged.map((l) => [l.msg, l.code])).toEqual([
      ['database connection error (uncaught exception) survived: the driver reconnects', 'ECONNRESET'],
      ['database connection error (unhandled rejection) survived: the driver reconnects', 'ECONNRESET'],
      ['database connection error (unhandled rejection) survived: the driver reconnects', 'CONNECTION_CLOSED'],
    ])
  }, 30_000)

  test('without the guard the same reset ends the process', async () => {
    const { code, stdout } = await run(false, false)
    expect(stdout).not.toContain('alive')
    expect(code).toBe(1)
  }, 30_000)

  test('any other escaped error still ends the process (status 1), logged', async () => {
    const { code, stdout, logged } = await run(true)
    expect(stdout).toContain('alive')
    expect(stdout).not.toContain('still alive after a bug')
    expect(code).toBe(1)
    expect(logged.at(-1)).toMatchObject({ msg: 'unhandled rejection: exiting', name: 'TypeError' })
  }, 30_000)

  test('what counts as a lost connection', () => {
    const socketError = (code: string) => Object.assign(new Error(code), { code, syscall: 'read' })
    const postgresError = (code: string) => Object.assign(new Error('x'), { name: 'PostgresError', code })
    expect(isConnectionLost(socketError('ECONNRESET'))).toBe(true)
    expect(isConnectionLost(socketError('EPIPE'))).toBe(true)
    expect(isConnectionLost(Object.assign(new Error('x'), { code: 'CONNECT_TIMEOUT' }))).toBe(true)
    expect(isConnectionLost(postgresError('57P01'))).toBe(true)
    expect(isConnectionLost(postgresError('08006'))).toBe(true)
    // drizzle's wrapper
    expect(isConnectionLost(Object.assign(new Error('Failed query'), { cause: socketError('ECONNRESET') }))).toBe(true)
    // not about a connection: a query's own error, a bug, an errno code without a socket call
    expect(isConnectionLost(postgresError('23505'))).toBe(false)
    expect(isConnectionLost(postgresError('57014'))).toBe(false)
    expect(isConnectionLost(new TypeError('x'))).toBe(false)
    expect(isConnectionLost(Object.assign(new Error('x'), { code: 'ECONNRESET' }))).toBe(false)
    expect(isConnectionLost(undefined)).toBe(false)
  })
})
