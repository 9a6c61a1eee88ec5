// The admin studio: a small single-page app over the admin JSON API (same origin, session
// cookie). No framework: DOM helpers below, hash routes, every text in Indonesian.

type Json = any
type FieldError = { field: string; message: string }

class ApiError extends Error {
  constructor(
    public status: number,
    message: string,
    public details: FieldError[] = [],
  ) {
    super(message)
  }
}

async function api(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const init: RequestInit = { method, headers: { accept: 'application/json', ...headers }, credentials: 'same-origin' }
  if (body instanceof FormData) init.body = body
  else if (body !== undefined) {
    init.body = JSON.stringify(body)
    ;(init.headers as Record<string, string>)['content-type'] = 'application/json'
  }
  const res = await fetch(path, init)
  const data: Json = await res.json().catch(() => ({}))
  if (res.status === 401 && !path.endsWith('/login')) {
    state.user = null
    render()
    throw new ApiError(401, data.error ?? 'Sesi berakhir, silakan masuk lagi')
  }
  if (!res.ok) throw new ApiError(res.status, data.error ?? `Gagal (${res.status})`, data.details ?? [])
  return { data, etag: res.headers.get('etag') }
}

// ---------------------------------------------------------------------------------------------
// DOM helpers

type Child = Node | string | number | null | undefined | false
function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, any> = {}, ...children: (Child | Child[])[]) {
  const el = document.createElement(tag)
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue
    if (key.startsWith('on')) el.addEventListener(key.slice(2).toLowerCase(), value)
    else if (key === 'class') el.className = value
    else if (key in el && key !== 'list' && key !== 'form') (el as any)[key] = value
    else el.setAttribute(key, value === true ? '' : String(value))
  }
  for (const child of children.flat())
    if (child !== null && child !== undefined && child !== false) el.append(child instanceof Node ? child : String(child))
  return el
}

const main = () => document.getElementById('main')!

function toast(message: string, bad = false) {
  const box = h('div', { class: bad ? 'bad' : '' }, message)
  document.getElementById('toast')!.append(box)
  setTimeout(() => box.remove(), 5000)
}

function fail(error: unknown) {
  if (error instanceof ApiError && error.status === 401) return
  toast(error instanceof Error ? error.message : String(error), true)
}

const fmtDateTime = (iso: string | null) =>
  iso ? new Intl.DateTimeFormat('id-ID', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso)) : '-'
const rupiah = (n: number) =>
  new Intl.NumberFormat('id-ID', { style: 'currency', currency: 'IDR', maximumFractionDigits: 0 }).format(n)

/** The event's date and time as its city sees them (dates and times are local to the city). */
function eventWhen(e: Json): string {
  const zone = e.city_time_zone ?? 'Asia/Jakarta'
  const abbr: Record<string, string> = {
    'Asia/Jakarta': 'WIB',
    'Asia/Pontianak': 'WIB',
    'Asia/Makassar': 'WITA',
    'Asia/Jayapura': 'WIT',
  }
  const day = (d: string) =>
    new Intl.DateTimeFormat('id-ID', { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
      new Date(`${d}T00:00:00Z`),
    )
  let text = day(e.start_date)
  if (e.end_date && e.end_date !== e.start_date) text += ` – ${day(e.end_date)}`
  if (e.start_time) text += `, ${e.start_time}${e.end_time ? `–${e.end_time}` : ''} ${abbr[zone] ?? zone}`
  return text
}

function statusChip(status: string) {
  const label: Record<string, string> = {
    published: 'Terbit',
    pending: 'Menunggu',
    draft: 'Draft',
    rejected: 'Ditolak',
    deleted: 'Dihapus',
    scheduled: 'Terjadwal',
  }
  return h('span', { class: `status ${status}` }, label[status] ?? status)
}

/** Shows the API's field messages next to the fields of `form` (by name); the first one gets focus. */
function showErrors(form: HTMLFormElement, error: unknown) {
  form.querySelectorAll('.err').forEach((e) => e.remove())
  if (!(error instanceof ApiError)) return fail(error)
  let first: HTMLElement | null = null
  for (const d of error.details) {
    const input = form.elements.namedItem(d.field) as HTMLElement | null
    if (!input) continue
    const id = `err-${d.field}`
    input.setAttribute('aria-describedby', id)
    input.setAttribute('aria-invalid', 'true')
    input.after(h('span', { class: 'err', id }, d.message))
    first ??= input
  }
  first?.focus()
  toast(error.message, true)
}

function field(
  label: string,
  name: string,
  value: any,
  opts: { type?: string; textarea?: boolean; options?: [string, string][]; hint?: string } = {},
) {
  let input: HTMLElement
  if (opts.options)
    input = h(
      'select',
      { name },
      ...opts.options.map(([v, l]) => h('option', { value: v, selected: String(value ?? '') === v }, l)),
    )
  else if (opts.textarea) input = h('textarea', { name }, value ?? '')
  else if (opts.type === 'checkbox') input = h('input', { type: 'checkbox', name, checked: Boolean(value) })
  else input = h('input', { type: opts.type ?? 'text', name, value: value ?? '' })
  return h('label', {}, label, opts.hint ? h('span', { class: 'muted' }, ` (${opts.hint})`) : null, input)
}

function formValues(form: HTMLFormElement): Record<string, any> {
  const out: Record<string, any> = {}
  for (const el of Array.from(form.elements) as HTMLInputElement[]) {
    if (!el.name) continue
    out[el.name] = el.type === 'checkbox' ? el.checked : el.value
  }
  return out
}

// ---------------------------------------------------------------------------------------------
// State and routing

const state: { user: Json | null; pending: number } = { user: null, pending: 0 }

const NAV: [string, string][] = [
  ['#/antrean', 'Antrean'],
  ['#/event', 'Event'],
  ['#/berita', 'Berita'],
  ['#/kategori', 'Kategori'],
  ['#/kota', 'Kota'],
  ['#/tag', 'Tag'],
  ['#/pengaturan', 'Pengaturan'],
  ['#/pengguna', 'Pengguna'],
  ['#/audit', 'Log audit'],
  ['#/akun', 'Akun saya'],
]

function renderNav() {
  const nav = document.getElementById('nav')!
  const route = location.hash.split('?')[0].split('/').slice(0, 2).join('/') || '#/antrean'
  nav.replaceChildren(
    ...NAV.filter(([href]) => href !== '#/pengguna' || state.user?.role === 'owner').map(([href, label]) =>
      h(
        'a',
        { href, 'aria-current': route === href ? 'page' : undefined },
        label,
        href === '#/antrean' && state.pending > 0
          ? h('span', { class: 'badge', 'aria-label': `${state.pending} menunggu` }, state.pending)
          : null,
      ),
    ),
  )
  document.getElementById('who')!.textContent = state.user ? `${state.user.name} (${state.user.role})` : ''
}

async function refreshPendingCount() {
  try {
    const { data } = await api('GET', '/api/admin/events?status=pending&limit=1')
    state.pending = data.total
    renderNav()
  } catch {}
}

const ROUTES: Record<string, (arg?: string) => Promise<void> | void> = {
  antrean: queueView,
  event: (id) => (id ? eventEditView(id) : eventListView()),
  berita: (id) => (id ? newsEditView(id) : newsListView()),
  kategori: () => termView('category'),
  kota: () => termView('city'),
  tag: () => termView('tag'),
  pengaturan: settingsView,
  pengguna: usersView,
  audit: auditView,
  akun: accountView,
}

async function render() {
  document.onkeydown = null
  const top = document.getElementById('top')!
  if (!state.user) {
    top.hidden = true
    return loginView()
  }
  top.hidden = false
  renderNav()
  const [, name = 'antrean', arg] = location.hash.split('?')[0].split('/')
  const view = ROUTES[name] ?? queueView
  main().replaceChildren(h('p', { class: 'muted' }, 'Memuat...'))
  try {
    await view(arg ? decodeURIComponent(arg) : undefined)
  } catch (error) {
    fail(error)
  }
  main().focus({ preventScroll: true })
}

window.addEventListener('hashchange', render)

// ---------------------------------------------------------------------------------------------
// Login

function loginView() {
  const form = h(
    'form',
    { class: 'card login', 'aria-labelledby': 'login-title' },
    h('h1', { id: 'login-title' }, 'Masuk ke Studio Admin'),
    field('Username', 'username', '', { type: 'text' }),
    field('Password', 'password', '', { type: 'password' }),
    h('button', { type: 'submit' }, 'Masuk'),
  )
  form.addEventListener('submit', async (e) => {
    e.preventDefault()
    try {
      const { data } = await api('POST', '/api/admin/login', formValues(form))
      state.user = data.user
      if (!location.hash) location.hash = '#/antrean'
      await refreshPendingCount()
      render()
    } catch (error) {
      showErrors(form, error)
    }
  })
  main().replaceChildren(form)
  ;(form.elements.namedItem('username') as HTMLInputElement).focus()
}

document.getElementById('logout')!.addEventListener('click', async () => {
  await api('POST', '/api/admin/logout').catch(() => {})
  state.user = null
  render()
})

// ---------------------------------------------------------------------------------------------
// The moderation queue

/** The event as the public would see it. */
function publicPreview(e: Json) {
  const map =
    e.latitude !== null && e.longitude !== null
      ? `https://www.openstreetmap.org/?mlat=${e.latitude}&mlon=${e.longitude}#map=16/${e.latitude}/${e.longitude}`
      : e.venue_address
        ? `https://www.openstreetmap.org/search?query=${encodeURIComponent(`${e.venue_address} ${e.city_name ?? ''}`)}`
        : null
  const desc = h('div', { class: 'desc' })
  desc.innerHTML = e.description // sanitised by the API with the submission's sanitiser
  return h(
    'article',
    { class: 'card preview', 'aria-label': `Pratinjau publik: ${e.title}` },
    e.poster_url
      ? h('img', { src: e.poster_url, alt: `Poster ${e.title}`, loading: 'lazy' })
      : h('p', { class: 'muted' }, 'Tanpa poster'),
    h('h2', {}, e.title),
    h('p', {}, h('strong', {}, 'Waktu: '), eventWhen(e)),
    h(
      'p',
      {},
      h('strong', {}, 'Tempat: '),
      [e.venue_name, e.venue_address, e.city_name].filter(Boolean).join(', ') || '-',
      ' ',
      map ? h('a', { href: map, target: '_blank', rel: 'noopener' }, 'Lihat peta') : null,
    ),
    h(
      'p',
      {},
      h('strong', {}, 'Harga: '),
      e.is_free
        ? 'Gratis'
        : e.ticket_price_max > e.ticket_price_min
          ? `${rupiah(e.ticket_price_min)} – ${rupiah(e.ticket_price_max)}`
          : rupiah(e.ticket_price_min),
    ),
    h(
      'p',
      {},
      h('strong', {}, 'Kontak: '),
      [e.contact_name, e.contact_phone, e.contact_email].filter(Boolean).join(' · ') || '-',
    ),
    h(
      'p',
      {},
      h('strong', {}, 'Kategori: '),
      e.category_name,
      e.tags.length ? ` · Tag: ${e.tags.map((t: Json) => t.name).join(', ')}` : '',
    ),
    e.short_description ? h('p', { class: 'muted' }, e.short_description) : null,
    desc,
  )
}

function rawFields(e: Json) {
  const skip = new Set(['description', 'gallery', 'tags'])
  return h(
    'section',
    { class: 'card', 'aria-label': 'Data mentah' },
    h('h2', {}, 'Data mentah'),
    h(
      'dl',
      { class: 'raw' },
      ...Object.entries(e)
        .filter(([k]) => !skip.has(k))
        .flatMap(([k, v]) => [h('dt', {}, k), h('dd', {}, v === null ? '—' : String(v))]),
    ),
    h('details', {}, h('summary', {}, 'Deskripsi (HTML tersimpan)'), h('pre', { style: 'white-space:pre-wrap' }, e.description)),
  )
}

async function rejectDialog(title: string): Promise<string | null> {
  return new Promise((resolve) => {
    const input = h('textarea', { name: 'reason', maxLength: 1000 })
    const dialog = h(
      'dialog',
      { 'aria-labelledby': 'reject-title' },
      h(
        'form',
        { method: 'dialog' },
        h('h2', { id: 'reject-title' }, `Tolak: ${title}`),
        h('label', {}, 'Alasan (dikirim ke log moderasi)', input),
        h(
          'div',
          { class: 'row' },
          h('button', { type: 'submit', value: 'ok', class: 'bad' }, 'Tolak event'),
          h('button', { type: 'submit', value: 'cancel', class: 'plain' }, 'Batal'),
        ),
      ),
    )
    dialog.addEventListener('close', () => {
      resolve(dialog.returnValue === 'ok' ? input.value : null)
      dialog.remove()
    })
    document.body.append(dialog)
    dialog.showModal()
    input.focus()
  })
}

async function queueView() {
  const { data } = await api('GET', '/api/admin/events?status=pending&sort=oldest&limit=50')
  state.pending = data.total
  renderNav()
  const items: Json[] = data.events
  let index = 0
  const list = h('div', {})
  const help = h(
    'p',
    { class: 'muted' },
    'Pintasan: ',
    h('span', { class: 'kbd' }, 'j'),
    '/',
    h('span', { class: 'kbd' }, 'k'),
    ' berikutnya/sebelumnya, ',
    h('span', { class: 'kbd' }, 'a'),
    ' setujui, ',
    h('span', { class: 'kbd' }, 'r'),
    ' tolak, ',
    h('span', { class: 'kbd' }, 'e'),
    ' ubah lalu setujui.',
  )
  const show = () => {
    if (!items.length)
      return list.replaceChildren(h('p', { class: 'card' }, 'Antrean kosong: tidak ada event yang menunggu moderasi.'))
    index = Math.max(0, Math.min(index, items.length - 1))
    const e = items[index]
    list.replaceChildren(
      h(
        'div',
        { class: 'queue-item', 'aria-current': 'true', 'data-id': e.id },
        h('p', {}, `Pengajuan ${index + 1} dari ${items.length} · dikirim ${fmtDateTime(e.created_at)}`),
        h(
          'div',
          { class: 'row', style: 'margin-bottom:12px' },
          h('button', { type: 'button', class: 'ok', onclick: () => act('approve') }, 'Setujui (a)'),
          h('button', { type: 'button', class: 'bad', onclick: () => act('reject') }, 'Tolak (r)'),
          h(
            'button',
            { type: 'button', class: 'plain', onclick: () => (location.hash = `#/event/${e.id}?approve`) },
            'Ubah lalu setujui (e)',
          ),
          h(
            'button',
            { type: 'button', class: 'plain', onclick: () => ((index = index - 1), show()), disabled: index === 0 },
            'Sebelumnya (k)',
          ),
          h(
            'button',
            { type: 'button', class: 'plain', onclick: () => ((index = index + 1), show()), disabled: index >= items.length - 1 },
            'Berikutnya (j)',
          ),
        ),
        h('div', { class: 'split' }, publicPreview(e), rawFields(e)),
      ),
    )
  }
  const act = async (action: 'approve' | 'reject') => {
    const e = items[index]
    if (!e) return
    let body: Json
    if (action === 'reject') {
      const reason = await rejectDialog(e.title)
      if (reason === null) return
      body = { reason }
    }
    try {
      const { data } = await api('POST', `/api/admin/events/${e.id}/${action}`, body)
      toast(data.message)
      items.splice(index, 1)
      state.pending = Math.max(0, state.pending - 1)
      renderNav()
      show()
    } catch (error) {
      fail(error)
    }
  }
  document.onkeydown = (ev) => {
    if (
      ev.target instanceof HTMLInputElement ||
      ev.target instanceof HTMLTextAreaElement ||
      document.querySelector('dialog[open]')
    )
      return
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return
    if (ev.key === 'j') ((index += 1), show())
    else if (ev.key === 'k') ((index -= 1), show())
    else if (ev.key === 'a') act('approve')
    else if (ev.key === 'r') act('reject')
    else if (ev.key === 'e' && items[index]) location.hash = `#/event/${items[index].id}?approve`
  }
  main().replaceChildren(h('h1', {}, 'Antrean moderasi ', h('span', { class: 'badge' }, data.total)), help, list)
  show()
}

// ---------------------------------------------------------------------------------------------
// Lists with search, status filter and paging

function listControls(opts: { statuses: [string, string][]; params: URLSearchParams; onChange: (p: URLSearchParams) => void }) {
  const form = h(
    'form',
    { class: 'row card', role: 'search' },
    h('label', {}, 'Cari', h('input', { type: 'search', name: 'q', value: opts.params.get('q') ?? '' })),
    h(
      'label',
      {},
      'Status',
      h(
        'select',
        { name: 'status' },
        ...opts.statuses.map(([v, l]) => h('option', { value: v, selected: (opts.params.get('status') ?? 'all') === v }, l)),
      ),
    ),
    h('button', { type: 'submit' }, 'Terapkan'),
  )
  form.addEventListener('submit', (e) => {
    e.preventDefault()
    const v = formValues(form)
    const p = new URLSearchParams()
    if (v.q) p.set('q', v.q)
    if (v.status && v.status !== 'all') p.set('status', v.status)
    opts.onChange(p)
  })
  return form
}

function pager(page: number, limit: number, total: number, go: (page: number) => void) {
  const pages = Math.max(1, Math.ceil(total / limit))
  return h(
    'nav',
    { class: 'pager', 'aria-label': 'Halaman' },
    h('button', { type: 'button', class: 'plain', disabled: page <= 1, onclick: () => go(page - 1) }, '‹ Sebelumnya'),
    h('span', {}, `Halaman ${page} dari ${pages} · ${total} data`),
    h('button', { type: 'button', class: 'plain', disabled: page >= pages, onclick: () => go(page + 1) }, 'Berikutnya ›'),
  )
}

function hashParams(): URLSearchParams {
  return new URLSearchParams(location.hash.split('?')[1] ?? '')
}

async function eventListView() {
  const params = hashParams()
  const page = Number(params.get('page') ?? 1)
  const query = new URLSearchParams(params)
  query.set('limit', '20')
  const { data } = await api('GET', `/api/admin/events?${query}`)
  const go = (p: URLSearchParams) => (location.hash = `#/event?${p}`)
  main().replaceChildren(
    h('h1', {}, 'Event'),
    listControls({
      statuses: [
        ['all', 'Semua'],
        ['pending', 'Menunggu'],
        ['published', 'Terbit'],
        ['draft', 'Draft'],
        ['rejected', 'Ditolak'],
        ['deleted', 'Tempat sampah'],
      ],
      params,
      onChange: go,
    }),
    h(
      'div',
      { class: 'table-wrap', tabindex: 0, role: 'region', 'aria-label': 'Tabel (geser ke samping di layar kecil)' },
      h(
        'table',
        {},
        h('thead', {}, h('tr', {}, h('th', {}, 'Judul'), h('th', {}, 'Status'), h('th', {}, 'Tanggal'), h('th', {}, 'Kota'))),
        h(
          'tbody',
          {},
          ...data.events.map((e: Json) =>
            h(
              'tr',
              {},
              h(
                'td',
                {},
                h('a', { href: `#/event/${e.id}` }, e.title),
                e.is_featured ? ' ★' : '',
                e.is_cancelled ? ' (dibatalkan)' : '',
              ),
              h('td', {}, statusChip(e.status)),
              h('td', {}, e.start_date),
              h('td', {}, e.city_name ?? '-'),
            ),
          ),
        ),
      ),
    ),
    pager(page, data.limit, data.total, (p) => {
      params.set('page', String(p))
      go(params)
    }),
  )
}

// ---------------------------------------------------------------------------------------------
// Event edit

async function uploadField(label: string, name: string, value: string) {
  const input = h('input', { type: 'url', name, value })
  const preview = h('img', { class: 'upload-preview', alt: `Pratinjau ${label}`, src: value || undefined, hidden: !value })
  const file = h('input', { type: 'file', accept: 'image/png,image/jpeg,image/webp', 'aria-label': `Unggah ${label}` })
  input.addEventListener('input', () => {
    preview.src = input.value
    preview.hidden = !input.value
  })
  file.addEventListener('change', async () => {
    if (!file.files?.[0]) return
    const form = new FormData()
    form.append('file', file.files[0])
    try {
      const { data } = await api('POST', '/api/upload', form)
      input.value = data.url
      preview.src = data.url
      preview.hidden = false
      toast('Gambar terunggah')
    } catch (error) {
      fail(error)
    }
  })
  return h('label', {}, label, input, file, preview)
}

async function eventEditView(id: string) {
  const approveAfter = hashParams().has('approve')
  const [{ data, etag }, cats, cities] = await Promise.all([
    api('GET', `/api/admin/events/${id}`),
    api('GET', '/api/admin/categories'),
    api('GET', '/api/admin/cities'),
  ])
  const e = data.event
  let currentEtag = etag!
  const form = h(
    'form',
    { class: 'card', 'aria-labelledby': 'edit-title' },
    h('div', { class: 'split' }, [
      h('div', {}, [
        field('Judul', 'title', e.title),
        field('Slug', 'slug', e.slug, { hint: 'slug lama tetap dialihkan' }),
        field('Kategori', 'category_id', e.category_id, { options: cats.data.categories.map((c: Json) => [c.id, c.name]) }),
        field('Kota', 'city_id', e.city_id ?? '', {
          options: [['', '(tanpa kota)'], ...cities.data.cities.map((c: Json) => [c.id, `${c.name} (${c.time_zone})`])],
        }),
        h(
          'div',
          { class: 'row' },
          field('Tanggal mulai', 'start_date', e.start_date, { type: 'date' }),
          field('Tanggal selesai', 'end_date', e.end_date, { type: 'date' }),
        ),
        h(
          'div',
          { class: 'row' },
          field('Jam mulai', 'start_time', e.start_time ?? '', { type: 'time' }),
          field('Jam selesai', 'end_time', e.end_time ?? '', { type: 'time' }),
        ),
        field('Jenis', 'event_type', e.event_type, {
          options: [
            ['offline', 'Offline'],
            ['online', 'Online'],
            ['hybrid', 'Hybrid'],
          ],
        }),
        field('Nama tempat', 'venue_name', e.venue_name),
        field('Alamat', 'venue_address', e.venue_address),
        h(
          'div',
          { class: 'row' },
          field('Latitude', 'latitude', e.latitude ?? ''),
          field('Longitude', 'longitude', e.longitude ?? ''),
        ),
      ]),
      h('div', {}, [
        field('Penyelenggara', 'organizer_name', e.organizer_name),
        field('Nama kontak', 'contact_name', e.contact_name),
        field('Telepon kontak', 'contact_phone', e.contact_phone),
        field('Email kontak', 'contact_email', e.contact_email),
        h(
          'div',
          { class: 'row' },
          field('Harga min (Rp)', 'ticket_price_min', e.ticket_price_min, { type: 'number' }),
          field('Harga maks (Rp)', 'ticket_price_max', e.ticket_price_max, { type: 'number' }),
        ),
        field('Gratis', 'is_free', e.is_free === 1, { type: 'checkbox' }),
        field('Link tiket', 'ticket_url', e.ticket_url),
        await uploadField('Poster', 'poster_url', e.poster_url),
        field('Tag', 'tags', e.tags.map((t: Json) => t.name).join(', '), { hint: 'pisahkan dengan koma' }),
        field('Deskripsi singkat', 'short_description', e.short_description),
        field('Deskripsi (HTML)', 'description', e.description, { textarea: true }),
      ]),
    ]),
    h(
      'div',
      { class: 'row' },
      h('button', { type: 'submit', name: 'save' }, 'Simpan'),
      e.status !== 'published' && e.status !== 'deleted'
        ? h('button', { type: 'submit', name: 'save-approve', class: 'ok' }, 'Simpan & setujui')
        : null,
    ),
  )
  const initial = formValues(form)
  const changed = () => {
    const now = formValues(form)
    const out: Record<string, any> = {}
    for (const [k, v] of Object.entries(now)) if (v !== initial[k]) out[k] = v === '' ? null : v
    return out
  }
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault()
    const submitter = (ev as SubmitEvent).submitter as HTMLButtonElement | null
    const body = changed()
    try {
      if (Object.keys(body).length) {
        const res = await api('PATCH', `/api/admin/events/${id}`, body, { 'if-match': currentEtag })
        currentEtag = res.etag!
        Object.assign(initial, formValues(form))
        toast('Perubahan disimpan dan sudah tampil untuk publik')
      }
      if (submitter?.name === 'save-approve') {
        const res = await api('POST', `/api/admin/events/${id}/approve`)
        toast(res.data.message)
        location.hash = '#/antrean'
      } else render()
    } catch (error) {
      if (error instanceof ApiError && error.status === 412)
        toast('Event ini sudah diubah orang lain sejak Anda membukanya. Muat ulang halaman untuk melihat versi terbaru.', true)
      showErrors(form, error)
    }
  })
  const action = (path: string, label: string, cls = 'plain', method = 'POST') =>
    h(
      'button',
      {
        type: 'button',
        class: cls,
        onclick: async () => {
          try {
            const body = path === 'cancel' ? { reason: prompt('Alasan pembatalan (opsional)') ?? '' } : undefined
            const res = await api(method, `/api/admin/events/${id}${path && path !== 'delete' ? `/${path}` : ''}`, body, {
              'if-match': currentEtag,
            })
            toast(res.data.message)
            render()
          } catch (error) {
            fail(error)
          }
        },
      },
      label,
    )
  main().replaceChildren(
    h(
      'h1',
      { id: 'edit-title' },
      'Ubah event ',
      statusChip(e.status),
      e.is_cancelled ? ' (dibatalkan)' : '',
      e.is_featured ? ' ★ unggulan' : '',
    ),
    ...(approveAfter ? [h('p', { class: 'card' }, 'Perbaiki lalu tekan "Simpan & setujui".')] : []),
    h(
      'div',
      { class: 'row card' },
      e.status === 'deleted'
        ? action('restore', 'Pulihkan dari tempat sampah', 'ok')
        : action('delete', 'Hapus (tempat sampah)', 'bad', 'DELETE'),
      e.status !== 'deleted'
        ? e.is_featured
          ? action('unfeature', 'Hapus dari unggulan')
          : action('feature', 'Jadikan unggulan')
        : null,
      e.status !== 'deleted'
        ? e.is_cancelled
          ? action('restore', 'Batalkan pembatalan')
          : action('cancel', 'Tandai dibatalkan')
        : null,
      e.status === 'published' ? h('a', { href: `/api/events/${e.slug}`, target: '_blank' }, 'Lihat JSON publik') : null,
      h('span', { class: 'muted' }, `Revisi ${e.revision} · diubah ${fmtDateTime(e.updated_at)}`),
    ),
    form,
    h('h2', {}, 'Pratinjau publik'),
    publicPreview(e),
  )
}

// ---------------------------------------------------------------------------------------------
// News

async function newsListView() {
  const params = hashParams()
  const page = Number(params.get('page') ?? 1)
  const query = new URLSearchParams(params)
  query.set('limit', '20')
  const { data } = await api('GET', `/api/admin/news?${query}`)
  const go = (p: URLSearchParams) => (location.hash = `#/berita?${p}`)
  const create = h(
    'form',
    { class: 'card row', 'aria-label': 'Artikel baru' },
    field('Judul artikel baru', 'title', ''),
    field('Kategori', 'category', 'Liputan'),
    h('button', { type: 'submit' }, 'Buat draft'),
  )
  create.addEventListener('submit', async (ev) => {
    ev.preventDefault()
    try {
      const { data } = await api('POST', '/api/admin/news', formValues(create))
      location.hash = `#/berita/${data.article.id}`
    } catch (error) {
      showErrors(create, error)
    }
  })
  main().replaceChildren(
    h('h1', {}, 'Berita'),
    create,
    listControls({
      statuses: [
        ['all', 'Semua'],
        ['draft', 'Draft'],
        ['scheduled', 'Terjadwal'],
        ['published', 'Terbit'],
      ],
      params,
      onChange: go,
    }),
    h(
      'div',
      { class: 'table-wrap', tabindex: 0, role: 'region', 'aria-label': 'Tabel (geser ke samping di layar kecil)' },
      h(
        'table',
        {},
        h('thead', {}, h('tr', {}, h('th', {}, 'Judul'), h('th', {}, 'Status'), h('th', {}, 'Terbit'), h('th', {}, 'Kategori'))),
        h(
          'tbody',
          {},
          ...data.articles.map((a: Json) =>
            h(
              'tr',
              {},
              h('td', {}, h('a', { href: `#/berita/${a.id}` }, a.title), a.is_featured ? ' ★' : ''),
              h('td', {}, statusChip(a.status)),
              h('td', {}, a.status === 'draft' ? '-' : fmtDateTime(a.published_at)),
              h('td', {}, a.category),
            ),
          ),
        ),
      ),
    ),
    pager(page, data.limit, data.total, (p) => {
      params.set('page', String(p))
      go(params)
    }),
  )
}

const toLocalInput = (iso: string) => {
  const d = new Date(iso)
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`
}

async function newsEditView(id: string) {
  const { data, etag } = await api('GET', `/api/admin/news/${id}`)
  const a = data.article
  let currentEtag = etag!
  const form = h(
    'form',
    { class: 'card' },
    field('Judul', 'title', a.title),
    field('Slug', 'slug', a.slug, { hint: 'slug lama tetap dialihkan' }),
    field('Kategori', 'category', a.category),
    field('Penulis', 'author_name', a.author_name),
    field('Ringkasan', 'excerpt', a.excerpt),
    await uploadField('Gambar sampul', 'cover_url', a.cover_url),
    field('Isi (HTML)', 'content', a.content, { textarea: true }),
    field('Unggulan', 'is_featured', a.is_featured, { type: 'checkbox' }),
    h('button', { type: 'submit' }, 'Simpan'),
  )
  const initial = formValues(form)
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault()
    const now = formValues(form)
    const body: Record<string, any> = {}
    for (const [k, v] of Object.entries(now)) if (v !== initial[k]) body[k] = v
    try {
      const res = await api('PATCH', `/api/admin/news/${id}`, body, { 'if-match': currentEtag })
      currentEtag = res.etag!
      toast('Artikel disimpan')
      render()
    } catch (error) {
      if (error instanceof ApiError && error.status === 412) toast('Artikel sudah diubah orang lain. Muat ulang halaman.', true)
      showErrors(form, error)
    }
  })
  const when = h('input', {
    type: 'datetime-local',
    name: 'published_at',
    value: a.status === 'draft' ? '' : toLocalInput(a.published_at),
  })
  const publish = h(
    'form',
    { class: 'card row', 'aria-label': 'Terbitkan' },
    h('label', {}, 'Jadwal terbit (kosong = sekarang)', when),
    h('button', { type: 'submit', class: 'ok' }, 'Terbitkan / jadwalkan'),
    a.status !== 'draft'
      ? h(
          'button',
          {
            type: 'button',
            class: 'plain',
            onclick: async () => {
              try {
                toast((await api('POST', `/api/admin/news/${id}/unpublish`, undefined, { 'if-match': currentEtag })).data.message)
                render()
              } catch (error) {
                fail(error)
              }
            },
          },
          'Tarik (jadikan draft)',
        )
      : null,
    h(
      'button',
      {
        type: 'button',
        class: 'bad',
        onclick: async () => {
          if (!confirm('Hapus artikel ini secara permanen?')) return
          try {
            await api('DELETE', `/api/admin/news/${id}`, undefined, { 'if-match': currentEtag })
            location.hash = '#/berita'
          } catch (error) {
            fail(error)
          }
        },
      },
      'Hapus',
    ),
  )
  publish.addEventListener('submit', async (ev) => {
    ev.preventDefault()
    try {
      const body = when.value ? { published_at: new Date(when.value).toISOString() } : undefined
      const res = await api('POST', `/api/admin/news/${id}/publish`, body, { 'if-match': currentEtag })
      toast(res.data.message)
      render()
    } catch (error) {
      showErrors(publish, error)
    }
  })
  main().replaceChildren(
    h('h1', {}, 'Ubah artikel ', statusChip(a.status)),
    ...(a.status === 'scheduled' ? [h('p', {}, `Terjadwal terbit ${fmtDateTime(a.published_at)}`)] : []),
    publish,
    form,
  )
}

// ---------------------------------------------------------------------------------------------
// Categories, cities, tags

const TERMS = {
  category: {
    path: 'categories',
    key: 'categories',
    one: 'category',
    title: 'Kategori',
    fields: [
      ['name', 'Nama'],
      ['description', 'Deskripsi'],
      ['icon', 'Ikon'],
      ['sort_order', 'Urutan'],
      ['is_active', 'Aktif'],
    ],
  },
  city: {
    path: 'cities',
    key: 'cities',
    one: 'city',
    title: 'Kota',
    fields: [
      ['name', 'Nama'],
      ['province', 'Provinsi'],
      ['time_zone', 'Zona waktu (IANA)'],
    ],
  },
  tag: { path: 'tags', key: 'tags', one: 'tag', title: 'Tag', fields: [['name', 'Nama']] },
} as const

async function termView(kind: keyof typeof TERMS) {
  const spec = TERMS[kind]
  const { data } = await api('GET', `/api/admin/${spec.path}`)
  const items: Json[] = data[spec.key]
  const fieldFor = (name: string, label: string, value: any) =>
    name === 'is_active'
      ? field(label, name, value ?? true, { type: 'checkbox' })
      : field(label, name, value ?? (name === 'time_zone' ? 'Asia/Jakarta' : ''), {
          type: name === 'sort_order' ? 'number' : 'text',
        })
  const valuesOf = (form: HTMLFormElement) => {
    const v = formValues(form)
    if ('sort_order' in v) v.sort_order = Number(v.sort_order || 0)
    return v
  }
  const create = h(
    'form',
    { class: 'card row', 'aria-label': `${spec.title} baru` },
    ...spec.fields.map(([n, l]) => fieldFor(n, l, undefined)),
    h('button', { type: 'submit' }, 'Tambah'),
  )
  create.addEventListener('submit', async (ev) => {
    ev.preventDefault()
    try {
      await api('POST', `/api/admin/${spec.path}`, valuesOf(create))
      toast(`${spec.title} ditambahkan`)
      render()
    } catch (error) {
      showErrors(create, error)
    }
  })
  const rows = items.map((item) => {
    const form = h(
      'form',
      { class: 'row', 'aria-label': `Ubah ${item.name}` },
      ...spec.fields.map(([n, l]) => fieldFor(n, l, item[n])),
      h('button', { type: 'submit' }, 'Simpan'),
    )
    form.addEventListener('submit', async (ev) => {
      ev.preventDefault()
      try {
        await api('PATCH', `/api/admin/${spec.path}/${item.id}`, valuesOf(form))
        toast('Disimpan')
      } catch (error) {
        showErrors(form, error)
      }
    })
    const extra: Node[] = []
    if (kind === 'tag') {
      const select = h(
        'select',
        { 'aria-label': `Gabungkan ${item.name} ke` },
        h('option', { value: '' }, 'Gabungkan ke...'),
        ...items.filter((o) => o.id !== item.id).map((o) => h('option', { value: o.id }, o.name)),
      )
      extra.push(
        select,
        h(
          'button',
          {
            type: 'button',
            class: 'plain',
            onclick: async () => {
              if (!select.value) return
              try {
                await api('POST', `/api/admin/tags/${item.id}/merge`, { into_id: select.value })
                toast('Tag digabungkan')
                render()
              } catch (error) {
                fail(error)
              }
            },
          },
          'Gabungkan',
        ),
      )
    }
    return h(
      'div',
      { class: 'card' },
      h('p', { class: 'muted' }, `${item.slug} · ${item.event_count} event`),
      form,
      h(
        'div',
        { class: 'row' },
        ...extra,
        h(
          'button',
          {
            type: 'button',
            class: 'bad',
            onclick: async () => {
              try {
                await api('DELETE', `/api/admin/${spec.path}/${item.id}`)
                toast('Dihapus')
                render()
              } catch (error) {
                fail(error)
              }
            },
          },
          'Hapus',
        ),
      ),
    )
  })
  main().replaceChildren(h('h1', {}, spec.title), create, ...rows)
}

// ---------------------------------------------------------------------------------------------
// Settings, users, account, audit

async function settingsView() {
  const { data } = await api('GET', '/api/admin/settings')
  const labels: Record<string, string> = {
    site_title: 'Judul situs',
    site_tagline: 'Tagline',
    site_logo: 'URL logo',
    instagram_url: 'URL Instagram',
    meta_description: 'Deskripsi meta',
    contact_email: 'Email kontak',
    contact_phone: 'Telepon kontak',
    contact_whatsapp: 'WhatsApp',
  }
  const form = h(
    'form',
    { class: 'card' },
    ...Object.entries(labels).map(([k, l]) => field(l, k, data.settings[k])),
    h('button', { type: 'submit' }, 'Simpan'),
  )
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault()
    try {
      await api('PATCH', '/api/admin/settings', formValues(form))
      toast('Pengaturan disimpan')
    } catch (error) {
      showErrors(form, error)
    }
  })
  main().replaceChildren(h('h1', {}, 'Pengaturan situs'), form)
}

async function usersView() {
  if (state.user?.role !== 'owner')
    return void main().replaceChildren(h('p', { class: 'card' }, 'Hanya owner yang dapat mengelola pengguna.'))
  const { data } = await api('GET', '/api/admin/users')
  const create = h(
    'form',
    { class: 'card row', 'aria-label': 'Pengguna baru' },
    field('Username', 'username', ''),
    field('Nama', 'name', ''),
    field('Password awal', 'password', '', { type: 'password', hint: 'min. 12 karakter' }),
    field('Peran', 'role', 'editor', {
      options: [
        ['editor', 'Editor'],
        ['owner', 'Owner'],
      ],
    }),
    h('button', { type: 'submit' }, 'Buat pengguna'),
  )
  create.addEventListener('submit', async (ev) => {
    ev.preventDefault()
    try {
      await api('POST', '/api/admin/users', formValues(create))
      toast('Pengguna dibuat')
      render()
    } catch (error) {
      showErrors(create, error)
    }
  })
  const patchUser = async (id: string, body: Json, message: string) => {
    try {
      await api('PATCH', `/api/admin/users/${id}`, body)
      toast(message)
      render()
    } catch (error) {
      fail(error)
    }
  }
  main().replaceChildren(
    h('h1', {}, 'Pengguna'),
    create,
    h(
      'div',
      { class: 'table-wrap', tabindex: 0, role: 'region', 'aria-label': 'Tabel (geser ke samping di layar kecil)' },
      h(
        'table',
        {},
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            h('th', {}, 'Username'),
            h('th', {}, 'Nama'),
            h('th', {}, 'Peran'),
            h('th', {}, 'Status'),
            h('th', {}, 'Aksi'),
          ),
        ),
        h(
          'tbody',
          {},
          ...data.users.map((u: Json) =>
            h(
              'tr',
              {},
              h('td', {}, u.username),
              h('td', {}, u.name),
              h('td', {}, u.role),
              h('td', {}, u.disabled ? 'Nonaktif' : 'Aktif'),
              h(
                'td',
                {},
                u.id === state.user.id
                  ? h('span', { class: 'muted' }, 'Anda')
                  : h(
                      'div',
                      { class: 'row' },
                      h(
                        'button',
                        {
                          type: 'button',
                          class: u.disabled ? 'ok' : 'bad',
                          onclick: () =>
                            patchUser(
                              u.id,
                              { disabled: !u.disabled },
                              u.disabled ? 'Pengguna diaktifkan' : 'Pengguna dinonaktifkan; sesinya berakhir',
                            ),
                        },
                        u.disabled ? 'Aktifkan' : 'Nonaktifkan',
                      ),
                      h(
                        'button',
                        {
                          type: 'button',
                          class: 'plain',
                          onclick: () => {
                            const password = prompt(`Password baru untuk ${u.username} (min. 12 karakter)`)
                            if (password) patchUser(u.id, { password }, 'Password direset; sesinya berakhir')
                          },
                        },
                        'Reset password',
                      ),
                    ),
              ),
            ),
          ),
        ),
      ),
    ),
  )
}

function accountView() {
  const form = h(
    'form',
    { class: 'card', 'aria-labelledby': 'pw-title' },
    h('h2', { id: 'pw-title' }, 'Ganti password'),
    field('Password lama', 'old_password', '', { type: 'password' }),
    field('Password baru', 'new_password', '', { type: 'password', hint: 'min. 12 karakter' }),
    h('button', { type: 'submit' }, 'Ganti password'),
  )
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault()
    try {
      toast((await api('POST', '/api/admin/me/password', formValues(form))).data.message)
      form.reset()
    } catch (error) {
      showErrors(form, error)
    }
  })
  main().replaceChildren(
    h('h1', {}, 'Akun saya'),
    h('p', {}, `${state.user.name} · ${state.user.username} · ${state.user.role}`),
    form,
  )
}

async function auditView() {
  const params = hashParams()
  const page = Number(params.get('page') ?? 1)
  const query = new URLSearchParams(params)
  query.set('limit', '30')
  const { data } = await api('GET', `/api/admin/audit?${query}`)
  const filter = h(
    'form',
    { class: 'card row', role: 'search' },
    field('Entitas', 'entity', params.get('entity') ?? '', {
      options: [
        ['', 'Semua'],
        ['event', 'Event'],
        ['news', 'Berita'],
        ['category', 'Kategori'],
        ['city', 'Kota'],
        ['tag', 'Tag'],
        ['settings', 'Pengaturan'],
        ['user', 'Pengguna'],
      ],
    }),
    field('ID admin', 'admin_id', params.get('admin_id') ?? ''),
    field('Dari tanggal', 'from', params.get('from') ?? '', { type: 'date' }),
    field('Sampai sebelum', 'to', params.get('to') ?? '', { type: 'date' }),
    h('button', { type: 'submit' }, 'Saring'),
  )
  filter.addEventListener('submit', (ev) => {
    ev.preventDefault()
    const p = new URLSearchParams(Object.entries(formValues(filter)).filter(([, v]) => v) as [string, string][])
    location.hash = `#/audit?${p}`
  })
  const show = (v: unknown) => (v ? JSON.stringify(v) : '—')
  main().replaceChildren(
    h('h1', {}, 'Log audit'),
    filter,
    h(
      'div',
      { class: 'table-wrap', tabindex: 0, role: 'region', 'aria-label': 'Tabel (geser ke samping di layar kecil)' },
      h(
        'table',
        {},
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            h('th', {}, 'Waktu'),
            h('th', {}, 'Admin'),
            h('th', {}, 'Aksi'),
            h('th', {}, 'Entitas'),
            h('th', {}, 'Sebelum'),
            h('th', {}, 'Sesudah'),
          ),
        ),
        h(
          'tbody',
          {},
          ...data.entries.map((r: Json) =>
            h(
              'tr',
              {},
              h('td', {}, fmtDateTime(r.created_at)),
              h('td', {}, r.admin_username ?? '-'),
              h('td', {}, r.action, r.reason ? ` (${r.reason})` : ''),
              h('td', {}, `${r.entity} ${r.entity_id.slice(-8)}`),
              h('td', { class: 'muted' }, show(r.before)),
              h('td', {}, show(r.after)),
            ),
          ),
        ),
      ),
    ),
    pager(page, data.limit, data.total, (p) => {
      params.set('page', String(p))
      location.hash = `#/audit?${params}`
    }),
  )
}

// ---------------------------------------------------------------------------------------------

async function start() {
  try {
    const { data } = await api('GET', '/api/admin/me')
    state.user = data.user
    await refreshPendingCount()
  } catch {
    state.user = null
  }
  render()
}

start()
