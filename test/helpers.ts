// Helpers for tests that run real processes on real ports.
import type { Subprocess } from 'bun'

export const repoRoot = `${import.meta.dir}/..`

/** A TCP port that was free a moment ago. */
export function freePort(): number {
  const server = Bun.serve({ port: 0, fetch: () => new Response() })
  const port = server.port!
  server.stop(true)
  return port
}

/** Polls `url` until it answers 2xx or the deadline passes. */
export async function waitFor(url: string, timeoutMs = 30_000, proc?: Subprocess): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (proc && proc.exitCode !== null) throw new Error(`process exited with ${proc.exitCode} before ${url} answered`)
    try {
      const res = await fetch(url)
      if (res.ok) return
    } catch {}
    await Bun.sleep(100)
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`)
}

/** Collects a stream's text in the background. */
export function collect(stream: ReadableStream<Uint8Array> | undefined | null | number) {
  const out = { text: '' }
  if (stream && typeof stream !== 'number')
    void (async () => {
      const decoder = new TextDecoder()
      for await (const chunk of stream) out.text += decoder.decode(chunk)
    })()
  return out
}

/** SIGTERM, then SIGKILL if it has not exited after `graceMs`. */
export async function stop(proc: Subprocess, graceMs = 10_000): Promise<number | null> {
  if (proc.exitCode !== null) return proc.exitCode
  proc.kill('SIGTERM')
  const timer = setTimeout(() => proc.kill('SIGKILL'), graceMs)
  await proc.exited
  clearTimeout(timer)
  return proc.exitCode
}
