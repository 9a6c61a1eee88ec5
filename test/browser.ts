// Headless Chromium (Debian's package) for tests that look at a page as a person would.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  // this machine has no internet: without these Chromium keeps trying to reach Google's hosts
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

/** For playwright-core's `chromium.launch({ args })`. */
export const BROWSER_FLAGS = FLAGS

export function chromiumPath(): string {
  const path = Bun.which('chromium') ?? Bun.which('chromium-browser')
  if (!path) throw new Error('chromium not found: apt-get install chromium (CI installs it)')
  return path
}

/** The DOM of `url` after its scripts ran (up to `budgetMs` of virtual time). */
export async function renderedDom(url: string, budgetMs = 15_000): Promise<string> {
  const profile = mkdtempSync(join(tmpdir(), 'chromium-'))
  try {
    const proc = Bun.spawn(
      [chromiumPath(), ...FLAGS, `--user-data-dir=${profile}`, `--virtual-time-budget=${budgetMs}`, '--dump-dom', url],
      {
        stdout: 'pipe',
        stderr: 'ignore',
      },
    )
    const timer = setTimeout(() => proc.kill('SIGKILL'), 60_000)
    const dom = await new Response(proc.stdout).text()
    await proc.exited
    clearTimeout(timer)
    return dom
  } finally {
    rmSync(profile, { recursive: true, force: true })
  }
}

/** The paths Swagger UI lists on a rendered /docs page. */
export function listedPaths(dom: string): string[] {
  return [...new Set([...dom.matchAll(/data-path="([^"]+)"/g)].map((m) => m[1]))].sort()
}
