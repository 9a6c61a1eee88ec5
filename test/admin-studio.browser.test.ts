// The admin studio in a real headless Chromium (Debian's, through playwright-core) against
// `bun start` (main.ts, PGlite): login, approve and reject from the queue, edit then see it on
// the public API, a 412 between two sessions, write and schedule a news article, a 360 px phone
// run, and axe-core with no serious or critical violation. Screenshots go to docs/screenshots/.
import { afterAll, beforeAll, describe, expect, test, setDefaultTimeout } from 'bun:test'
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, type Browser, type Page } from 'playwright-core'
import { chromiumPath } from './browser'
import { freePort, repoRoot, stop, waitFor } from './helpers'

setDefaultTimeout(120_000)

const OWNER = { username: 'pemilik', password: 'pemilik-studio-rahasia-1' }
const SHOTS = join(repoRoot, 'docs/screenshots')
// a valid 1x1 PNG
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='
const AXE = readFileSync(join(repoRoot, 'node_modules/axe-core/axe.min.js'), 'utf8')

let proc: ReturnType<typeof Bun.spawn>
let base = ''
let browser: Browser
const dataDir = mkdtempSync(join(tmpdir(), 'studio-'))

beforeAll(async () => {
  const port = freePort()
  const { DATABASE_URL: _ignored, ...env } = process.env
  proc = Bun.spawn(['bun', 'run', 'main.ts'], {
    cwd: repoRoot,
    env: {
      ...env,
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      ADMIN_USERNAME: OWNER.username,
      ADMIN_PASSWORD: OWNER.password,
    },
    stdout: 'ignore',
    stderr: 'ignore',
  })
  base = `http://127.0.0.1:${port}`
  await waitFor(`${base}/ready`, 90_000, proc)
  browser = await chromium.launch({
    executablePath: chromiumPath(),
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
    ],
  })
  mkdirSync(SHOTS, { recursive: true })
  await clearDemoQueue()
}, 120_000)

/** The demo data has a few pending events: they are rejected first, so the queue holds only this test's. */
async function clearDemoQueue() {
  const login = await fetch(`${base}/api/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(OWNER),
  })
  const cookie = login.headers.getSetCookie()[0].split(';')[0]
  const pending = await (await fetch(`${base}/api/admin/events?status=pending&limit=100`, { headers: { cookie } })).json()
  for (const e of pending.events)
    await fetch(`${base}/api/admin/events/${e.id}/reject`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ reason: 'data demo' }),
    })
}
afterAll(async () => {
  await browser?.close()
  if (proc) await stop(proc)
  rmSync(dataDir, { recursive: true, force: true })
})

let submitted = 0
/** A pending event through the public submission endpoint, as an organiser would send it. */
async function submit(title: string) {
  const [category] = (await (await fetch(`${base}/api/categories?limit=1`)).json()).data
  const [city] = (await (await fetch(`${base}/api/cities?limit=1`)).json()).data
  const res = await fetch(`${base}/api/events/submit`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': `198.51.100.${++submitted}` },
    body: JSON.stringify({
      title,
      category_id: category.id,
      city_id: city.id,
      start_date: new Date(Date.now() + 20 * 86_400_000).toISOString().slice(0, 10),
      start_time: '19:30',
      venue_name: 'Gedung Kesenian',
      venue_address: 'Jl. Gedung Kesenian No. 1',
      organizer_name: 'Komunitas Uji Studio',
      contact_email: 'panitia@uji-studio.id',
      ticket_price_min: 50000,
      ticket_price_max: 150000,
      description: '<p>Malam musik <strong>akustik</strong>.</p><script>alert(1)</script>',
      tags: 'Akustik, Malam',
    }),
  })
  expect(res.status).toBe(201)
  return (await res.json()).event as { id: string; slug: string }
}

async function login(page: Page) {
  await page.goto(`${base}/admin/`)
  await page.getByLabel('Username').fill(OWNER.username)
  await page.getByLabel('Password').fill(OWNER.password)
  await page.getByRole('button', { name: 'Masuk' }).click()
  await page.getByRole('heading', { name: /Antrean moderasi/ }).waitFor()
}

/** A screenshot of the page as it settles (passing notices cleared so they do not cover the form). */
async function shot(page: Page, name: string, fullPage = false) {
  await page.evaluate(() => document.getElementById('toast')?.replaceChildren())
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage })
}

/** axe-core injected into the page: no serious or critical violations. */
async function axe(page: Page, where: string) {
  await page.addScriptTag({ content: AXE })
  const result: any = await page.evaluate(async () => (window as any).axe.run(document, { resultTypes: ['violations'] }))
  const bad = result.violations.filter((v: any) => v.impact === 'serious' || v.impact === 'critical')
  expect(bad.map((v: any) => `${where}: ${v.id} ${v.help} (${v.nodes.length})`)).toEqual([])
}

const publicEvent = async (slug: string) => fetch(`${base}/api/events/${slug}`, { redirect: 'manual' })

describe('admin studio in Chromium', () => {
  test('/admin without a session shows the login; wrong password shows the API message', async () => {
    const page = await browser.newPage({ bypassCSP: true })
    await page.goto(`${base}/admin/`)
    await page.getByLabel('Password').fill('salah-sekali')
    await page.getByLabel('Username').fill(OWNER.username)
    await page.getByRole('button', { name: 'Masuk' }).click()
    await page.getByText('Username atau password salah').first().waitFor()
    await axe(page, 'login')
    await shot(page, 'login')
    await page.close()
  })

  test('approve a pending submission from the queue (keyboard), then it is public', async () => {
    const first = await submit('Konser Akustik Senja Studio')
    const second = await submit('Pameran Foto Ditolak Studio')
    expect((await publicEvent(first.slug)).status).toBe(404)
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, bypassCSP: true })
    await login(page)
    // oldest first with a count badge; the preview shows the sanitised description and local time
    const queue = page.locator('.queue-item')
    await queue.getByRole('heading', { name: 'Konser Akustik Senja Studio' }).waitFor()
    expect(await page.locator('header .badge').textContent()).toMatch(/^\d+$/)
    expect(await queue.locator('.desc').innerHTML()).toBe('<p>Malam musik <strong>akustik</strong>.</p>')
    expect(await queue.textContent()).toContain('19:30')
    expect(await queue.textContent()).toContain('Lihat peta')
    await axe(page, 'queue')
    await shot(page, 'queue', true)
    await page.keyboard.press('a')
    await page.getByRole('heading', { name: 'Pameran Foto Ditolak Studio' }).waitFor()
    const res = await publicEvent(first.slug)
    expect(res.status).toBe(200)
    expect((await res.json()).event.description).toBe('<p>Malam musik <strong>akustik</strong>.</p>')

    // reject with a reason through the dialog
    await page.keyboard.press('r')
    await page.getByLabel(/Alasan/).fill('Poster tidak sesuai')
    await page.getByRole('button', { name: 'Tolak event' }).click()
    await page.getByText('Event ditolak').first().waitFor()
    const audit = await page.evaluate(
      async (id) => (await (await fetch(`/api/admin/audit?entity_id=${id}`)).json()).entries,
      second.id,
    )
    expect(audit[0]).toMatchObject({ action: 'reject', reason: 'Poster tidak sesuai' })
    await page.close()
  })

  test('edit a field and see it on the public API; a second session gets the 412 conflict', async () => {
    const { id, slug } = await submit('Festival Suntingan Studio')
    const editor = await browser.newPage({ viewport: { width: 1280, height: 900 }, bypassCSP: true })
    await login(editor)
    await editor.goto(`${base}/admin/#/event/${id}?approve`)
    await editor.getByLabel('Judul').waitFor()
    // bad input: the API's message appears beside the field
    await editor.getByLabel('Email kontak').fill('bukan-email')
    await editor.getByRole('button', { name: 'Simpan & setujui' }).click()
    await editor.locator('#err-contact_email').waitFor()
    expect(await editor.locator('#err-contact_email').textContent()).toBe('Email kontak tidak valid')
    await editor.getByLabel('Email kontak').fill('panitia@uji-studio.id')
    await editor.getByLabel('Nama tempat').fill('Taman Budaya Studio')
    // a poster uploaded through the media service, with a preview
    await editor
      .getByLabel('Unggah Poster')
      .setInputFiles({ name: 'poster.png', mimeType: 'image/png', buffer: Buffer.from(PNG, 'base64') })
    await editor.getByText('Gambar terunggah').first().waitFor()
    const posterUrl = await editor.locator('input[name="poster_url"]').inputValue()
    expect(posterUrl).toMatch(/^http:\/\/.+\/media\/.+\.png$/)
    expect(await editor.getByAltText('Pratinjau Poster').getAttribute('src')).toBe(posterUrl)
    expect(
      await editor.getByAltText('Pratinjau Poster').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth),
    ).toBe(1)
    await editor.getByRole('button', { name: 'Simpan & setujui' }).click()
    await editor.getByRole('heading', { name: /Antrean moderasi/ }).waitFor()
    const pub = await (await publicEvent(slug)).json()
    expect(pub.event.venue_name).toBe('Taman Budaya Studio')
    expect(pub.event.poster_url).toBe(posterUrl)

    // two sessions open the same event; the first saves, the second is refused with 412
    const other = await browser.newContext({ bypassCSP: true })
    const second = await other.newPage({ viewport: { width: 1280, height: 900 } })
    await login(second)
    await editor.goto(`${base}/admin/#/event/${id}`)
    await second.goto(`${base}/admin/#/event/${id}`)
    await editor.getByLabel('Judul').waitFor()
    await second.getByLabel('Judul').waitFor()
    await axe(editor, 'event edit')
    await shot(editor, 'event-edit', true)
    await editor.getByLabel('Judul').fill('Festival Suntingan Studio (Editor A)')
    await editor.getByRole('button', { name: 'Simpan', exact: true }).click()
    await editor.getByText('Perubahan disimpan').first().waitFor()
    await second.getByLabel('Judul').fill('Festival Suntingan Studio (Editor B)')
    await second.getByRole('button', { name: 'Simpan', exact: true }).click()
    await second
      .getByText(/sudah diubah orang lain/)
      .first()
      .waitFor()
    expect((await (await publicEvent(slug)).json()).event.title).toBe('Festival Suntingan Studio (Editor A)')
    await editor.close()
    await other.close()
  })

  test('events and news lists; create and schedule a news article', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, bypassCSP: true })
    await login(page)
    await page.goto(`${base}/admin/#/event?status=published`)
    await page.getByRole('navigation', { name: 'Halaman' }).waitFor()
    await axe(page, 'events list')
    await shot(page, 'events')

    await page.goto(`${base}/admin/#/berita`)
    await page.getByLabel('Judul artikel baru').fill('Jadwal Festival Studio Desember')
    await page.getByRole('button', { name: 'Buat draft' }).click()
    await page.getByRole('heading', { name: /Ubah artikel/ }).waitFor()
    await page.getByLabel('Isi (HTML)').fill('<p>Catat tanggalnya.</p><img src=x onerror=alert(1)>')
    await page.getByRole('button', { name: 'Simpan', exact: true }).click()
    await page.getByText('Artikel disimpan').first().waitFor()
    const later = new Date(Date.now() + 2 * 86_400_000)
    const pad = (n: number) => String(n).padStart(2, '0')
    await page
      .getByLabel(/Jadwal terbit/)
      .fill(`${later.getFullYear()}-${pad(later.getMonth() + 1)}-${pad(later.getDate())}T09:00`)
    await page.getByRole('button', { name: 'Terbitkan / jadwalkan' }).click()
    await page
      .getByText(/Terjadwal terbit/)
      .first()
      .waitFor()
    const slug = await page.getByLabel('Slug').inputValue()
    expect(slug).toBe('jadwal-festival-studio-desember')
    expect((await fetch(`${base}/api/news/${slug}`)).status).toBe(404)
    await axe(page, 'news edit')
    await shot(page, 'news-edit', true)
    // publish now: public at once
    await page.getByLabel(/Jadwal terbit/).fill('')
    await page.getByRole('button', { name: 'Terbitkan / jadwalkan' }).click()
    await page.getByText('Artikel diterbitkan').first().waitFor()
    const article = await (await fetch(`${base}/api/news/${slug}`)).json()
    expect(article.article.content).toBe('<p>Catat tanggalnya.</p>')

    for (const [hash, name] of [
      ['#/kategori', 'categories'],
      ['#/pengguna', 'users'],
      ['#/audit', 'audit'],
      ['#/pengaturan', 'settings'],
    ]) {
      await page.goto(`${base}/admin/${hash}`)
      await page.locator('main h1').waitFor()
      await page.waitForLoadState('networkidle')
      await axe(page, name)
      await shot(page, name)
    }
    await page.close()
  })

  test('a 360 px phone: queue, approve and menu fit without horizontal scrolling', async () => {
    await submit('Lomba Lari Pagi Studio')
    const context = await browser.newContext({
      viewport: { width: 360, height: 740 },
      isMobile: true,
      hasTouch: true,
      deviceScaleFactor: 2,
      bypassCSP: true,
    })
    const page = await context.newPage()
    await login(page)
    await page.getByRole('heading', { name: 'Lomba Lari Pagi Studio' }).waitFor()
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
    expect(overflow).toBeLessThanOrEqual(0)
    await axe(page, 'phone queue')
    await shot(page, 'phone-queue')
    await page.getByRole('button', { name: 'Setujui (a)' }).tap()
    await page
      .getByText(/disetujui/)
      .first()
      .waitFor()
    await context.close()
  })
})
