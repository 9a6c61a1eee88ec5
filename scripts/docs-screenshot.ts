// `bun run scripts/docs-screenshot.ts`: starts the API like `bun start` (PGlite in a temporary
// DATA_DIR, demo data), opens /docs in headless Chromium (Debian's), runs one request with
// try-it-out and saves docs/screenshots/swagger-ui.png for the README.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { chromium } from 'playwright-core'
import { BROWSER_FLAGS, chromiumPath } from '../test/browser'
import { freePort } from './stack-lib'

const root = resolve(import.meta.dir, '..')
const dataDir = mkdtempSync(join(tmpdir(), 'docs-screenshot-'))
const port = freePort()
const { DATABASE_URL: _db, ...env } = process.env
const proc = Bun.spawn(['bun', 'run', 'main.ts'], {
  cwd: root,
  env: { ...env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'error' },
  stdout: 'ignore',
  stderr: 'inherit',
})
const base = `http://127.0.0.1:${port}`
try {
  for (let i = 0; i < 300 && !(await fetch(`${base}/ready`).catch(() => null))?.ok; i++) await Bun.sleep(200)
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: BROWSER_FLAGS })
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1400 } })
    await page.goto(`${base}/docs`)
    await page.waitForSelector('.opblock', { timeout: 30_000 })
    const op = '#operations-Kategori-getApiCategories'
    await page.locator(`${op} .opblock-summary`).click()
    await page.locator(`${op} button.execute`).click()
    await page.waitForSelector(`${op} .live-responses-table .response-col_status`, { timeout: 15_000 })
    await page.locator('#operations-tag-Kategori').scrollIntoViewIfNeeded()
    await page.evaluate('window.scrollTo(0, 0)')
    await page.screenshot({ path: join(root, 'docs/screenshots/swagger-ui.png') })
    console.log('saved docs/screenshots/swagger-ui.png')
  } finally {
    await browser.close()
  }
} finally {
  proc.kill('SIGTERM')
  await proc.exited
  rmSync(dataDir, { recursive: true, force: true })
}
