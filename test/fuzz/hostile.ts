// A hostile client: the classes of malformed input a public API gets, as data, sent to every
// endpoint (path parameters, every query parameter, bodies, content types, cookies, headers).
// Used by test/fuzz/hostile.test.ts (in-process app) and runnable by hand against any base URL:
//   bun run test/fuzz/hostile.ts http://localhost:3000
// It prints every answer that is a 5xx or not the error envelope, and exits 1 if there is one.

/** One request, as a raw URL path+query (already percent-encoded as sent) and options. */
export interface HostileCase {
  method: string
  path: string
  headers?: Record<string, string>
  body?: BodyInit
  label: string
}

/** Raw (already encoded) values for a string or number parameter. */
export const HOSTILE_VALUES: readonly string[] = [
  '%00',
  'a%00b',
  '%01',
  '%1F',
  '%7F',
  '%0A',
  '%0D%0A',
  '%09',
  '%C2%80', // NUL and control characters (C0, DEL, C1)
  '%C3%28',
  '%FF',
  '%FE%FF',
  '%ED%A0%80',
  '%F4%90%80%80',
  '%C0%AF',
  '%E2%82', // invalid UTF-8
  '%',
  '%G0',
  '%%',
  '%E2%80%AE',
  '%EF%BB%BF', // broken escapes, bidi override, BOM
  'a'.repeat(2100),
  'a'.repeat(9000),
  '%C3%A9'.repeat(1200), // overlong: a value, the whole URL
  '99999999999999999999',
  '9223372036854775808',
  '2147483648',
  '1e30',
  '1E3',
  '1.5',
  '-1',
  '-0',
  '0',
  '+1',
  '0x10',
  '0b1',
  '0o7',
  '1_000',
  'NaN',
  'Infinity',
  '-Infinity',
  '%201',
  '1%20',
  '',
  '%20',
  '.',
  '..',
  "'",
  '%22',
  '%5C',
  "'%20OR%201=1--",
  '%25',
  '_',
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  '%5B%5D',
  '__proto__',
  'constructor',
]

const LIST_QUERIES: Record<string, string[]> = {
  '/api/events': [
    'page',
    'limit',
    'q',
    'kategori',
    'kota',
    'tag',
    'format',
    'gratis',
    'sort',
    'waktu',
    'mulai',
    'sampai',
    'lat',
    'lng',
    'radius_km',
    'facets',
  ],
  '/api/events.ics': ['page', 'limit', 'q', 'kategori', 'kota', 'tag', 'sort', 'waktu', 'mulai', 'lat', 'lng', 'radius_km'],
  '/api/categories': ['page', 'limit', 'q', 'active_only'],
  '/api/cities': ['page', 'limit', 'q'],
  '/api/tags': ['page', 'limit', 'q'],
  '/api/news': ['page', 'limit', 'q', 'kategori', 'featured'],
  '/api/check-file': ['url'],
  '/api/events/jazz-gunung-bromo': ['related'],
}

const SLUG_PATHS = [
  '/api/events/{}',
  '/api/events/{}.ics',
  '/api/categories/{}',
  '/api/cities/{}',
  '/api/news/{}',
  '/media/{}',
  '/media/uploads/{}',
]
const ADMIN_ID_PATHS = ['/api/admin/events/{}/approve', '/api/admin/events/{}/reject']
const PATH_VALUES = [
  ...HOSTILE_VALUES.filter((v) => v !== '' && v !== '.' && v !== '..'),
  '0190a0a0-0000-7000-8000-000000000000',
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
  '0190a0a0-0000-7000-8000-00000000000g',
  '{0190a0a0-0000-7000-8000-000000000000}',
]

const JSON_POSTS = ['/api/events/submit', '/api/admin/login', '/api/admin/events/0190a0a0-0000-7000-8000-000000000000/reject']

function deepJson(depth: number): string {
  return '['.repeat(depth) + ']'.repeat(depth)
}

/** Bodies with the content types they are sent with. */
function hostileBodies(): Array<{ label: string; type?: string; body?: BodyInit }> {
  return [
    { label: 'empty json', type: 'application/json', body: '' },
    { label: 'whitespace json', type: 'application/json', body: '   ' },
    { label: 'json null', type: 'application/json', body: 'null' },
    { label: 'json array', type: 'application/json', body: '[]' },
    { label: 'json string', type: 'application/json', body: '"x"' },
    { label: 'json number', type: 'application/json', body: '1e400' },
    { label: 'truncated json', type: 'application/json', body: '{"title":' },
    { label: 'deep array', type: 'application/json', body: deepJson(100_000) },
    { label: 'deep object', type: 'application/json', body: '{"a":'.repeat(20_000) + '1' + '}'.repeat(20_000) },
    { label: 'nul in json', type: 'application/json', body: '{"title":"a\\u0000b","username":"a\\u0000","password":"\\u0000"}' },
    {
      label: 'lone surrogate',
      type: 'application/json',
      body: '{"title":"\\ud800","username":"\\udfff","password":"x","reason":"\\ud800"}',
    },
    {
      label: 'invalid utf8 bytes',
      type: 'application/json',
      body: new Uint8Array([0x7b, 0x22, 0x74, 0x69, 0x74, 0x6c, 0x65, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
    },
    {
      label: 'huge numbers',
      type: 'application/json',
      body: '{"ticket_price_min":1e308,"ticket_price_max":"99999999999999999999999999","latitude":1e400,"longitude":"NaN"}',
    },
    {
      label: 'arrays for scalars',
      type: 'application/json',
      body: '{"title":["a"],"username":["a"],"password":{"$gt":""},"reason":[1]}',
    },
    {
      label: 'proto pollution',
      type: 'application/json',
      body: '{"__proto__":{"admin":true},"constructor":{"prototype":{"x":1}}}',
    },
    { label: 'huge json', type: 'application/json', body: JSON.stringify({ title: 'x'.repeat(2_000_000) }) },
    {
      label: 'long strings',
      type: 'application/json',
      body: JSON.stringify(
        Object.fromEntries(
          [
            'title',
            'description',
            'username',
            'password',
            'reason',
            'tags',
            'organizer_name',
            'contact_email',
            'poster_url',
            'ticket_url',
            'category_id',
            'city_id',
            'start_date',
            'start_time',
          ].map((k) => [k, 'é'.repeat(30_000)]),
        ),
      ),
    },
    {
      label: 'bad ids',
      type: 'application/json',
      body: JSON.stringify({
        title: 'Judul acara',
        category_id: "1' OR 1=1",
        city_id: '\u0000',
        start_date: '2026-02-30',
        organizer_name: 'x',
        contact_email: 'a@b.id',
        ticket_price_min: '1e30',
        latitude: '91',
      }),
    },
    { label: 'text/plain', type: 'text/plain', body: '{"title":"x"}' },
    { label: 'form urlencoded', type: 'application/x-www-form-urlencoded', body: 'title=%00&username=a&password=b' },
    { label: 'form nul', type: 'application/x-www-form-urlencoded', body: 'username=%00&password=kata%00sandi&title=%C3%28' },
    {
      label: 'form urlencoded repeated',
      type: 'application/x-www-form-urlencoded',
      body: 'title=a&title=b&username=a&username=b',
    },
    { label: 'xml', type: 'application/xml', body: '<a/>' },
    { label: 'octet', type: 'application/octet-stream', body: new Uint8Array([0, 1, 2, 255]) },
    { label: 'no content type', body: '{"title":"x"}' },
    { label: 'weird content type', type: 'application/json; charset=ebcdic', body: '{}' },
    { label: 'garbage content type', type: '\u00ff/\u00fe', body: '{}' },
    { label: 'multipart no boundary', type: 'multipart/form-data', body: '--x\r\n' },
    {
      label: 'multipart bad boundary',
      type: 'multipart/form-data; boundary=zzz',
      body: '--x\r\nContent-Disposition: form-data; name="file"\r\n\r\nabc\r\n--x--',
    },
    {
      label: 'multipart truncated',
      type: 'multipart/form-data; boundary=b',
      body: '--b\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n\x89PNG',
    },
    { label: 'multipart empty', type: 'multipart/form-data; boundary=b', body: '--b--\r\n' },
    {
      label: 'multipart text file field',
      type: 'multipart/form-data; boundary=b',
      body: '--b\r\nContent-Disposition: form-data; name="file"\r\n\r\nnot a file\r\n--b--\r\n',
    },
    {
      label: 'multipart two files',
      type: 'multipart/form-data; boundary=b',
      body: '--b\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\nx\r\n--b\r\nContent-Disposition: form-data; name="file"; filename="b.png"\r\n\r\ny\r\n--b--\r\n',
    },
    {
      label: 'multipart nul filename',
      type: 'multipart/form-data; boundary=b',
      body: '--b\r\nContent-Disposition: form-data; name="file"; filename="a\u0000.png"\r\nContent-Type: image/png\r\n\r\n\x89PNG\r\n\x1a\n\r\n--b--\r\n',
    },
  ]
}

const COOKIES = [
  'admin_session=',
  'admin_session=%00',
  'admin_session=%FF%FE',
  'admin_session=' + 'a'.repeat(8000),
  'admin_session="unterminated',
  'admin_session=a; admin_session=b',
  'admin_session=0190a0a0-0000-7000-8000-000000000000',
  '=; ;;=;',
  'admin_session=\u00ff',
  'admin_session=a.b.c',
  'admin_session=%',
  'admin_session={"a":1}',
  'admin_session=s%3Aabc.def',
]

const HEADERS: Array<Record<string, string>> = [
  { 'x-request-id': 'a'.repeat(5000) },
  { 'x-request-id': '\u00ff\u00fe' },
  { 'x-forwarded-for': 'not-an-ip, %00, 999.999.999.999' },
  { 'x-forwarded-for': '1.2.3.4'.repeat(1000) },
  { 'if-none-match': '"' + 'x'.repeat(5000) },
  { 'if-none-match': '\u00ff' },
  { origin: 'null' },
  { origin: '\u00ff://x' },
  { 'accept-encoding': 'x'.repeat(5000) },
  { 'content-length': 'abc' },
  { range: 'bytes=99999999999999999999-' },
  { range: 'bytes=-0' },
]

/** Every hostile request, in a fixed order. */
export function hostileCases(): HostileCase[] {
  const cases: HostileCase[] = []
  for (const [path, params] of Object.entries(LIST_QUERIES)) {
    for (const param of params) {
      for (const value of HOSTILE_VALUES) cases.push({ method: 'GET', path: `${path}?${param}=${value}`, label: `${param}=` })
      cases.push({ method: 'GET', path: `${path}?${param}=1&${param}=2`, label: 'repeated' })
      cases.push({ method: 'GET', path: `${path}?${param}[]=1`, label: 'bracket array' })
      cases.push({ method: 'GET', path: `${path}?${param}[a]=1`, label: 'bracket object' })
      cases.push({ method: 'GET', path: `${path}?${param}`, label: 'no value' })
    }
    cases.push({ method: 'GET', path: `${path}?${'x'.repeat(3000)}=1`, label: 'long name' })
    cases.push({ method: 'GET', path: `${path}?%00=1`, label: 'nul name' })
    cases.push({ method: 'GET', path: `${path}?page=1&limit=100&q=a&page=%00`, label: 'mixed' })
    cases.push({
      method: 'GET',
      path: `${path}?${Array.from({ length: 1200 }, (_, i) => `p${i}=1`).join('&')}`,
      label: 'many params',
    })
  }
  for (const template of SLUG_PATHS)
    for (const value of PATH_VALUES.filter((v) => v.length < 8000))
      cases.push({ method: 'GET', path: template.replace('{}', value), label: 'path' })
  for (const template of ADMIN_ID_PATHS)
    for (const value of PATH_VALUES.filter((v) => v.length < 8000))
      cases.push({
        method: 'POST',
        path: template.replace('{}', value),
        label: 'admin path',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      })
  for (const path of JSON_POSTS)
    for (const b of hostileBodies())
      cases.push({ method: 'POST', path, label: b.label, body: b.body, headers: b.type ? { 'content-type': b.type } : {} })
  for (const b of hostileBodies())
    cases.push({
      method: 'POST',
      path: '/api/upload',
      label: b.label,
      body: b.body,
      headers: b.type ? { 'content-type': b.type } : {},
    })
  for (const path of [
    '/api/admin/me',
    '/api/admin/events',
    '/api/admin/logout',
    '/api/events',
    '/api/admin/events/0190a0a0-0000-7000-8000-000000000000/approve',
  ])
    for (const cookie of COOKIES)
      cases.push({
        method: path.endsWith('approve') || path.endsWith('logout') ? 'POST' : 'GET',
        path,
        label: 'cookie',
        headers: { cookie },
      })
  for (const headers of HEADERS)
    for (const path of ['/api/events', '/api/events/jazz-gunung-bromo', '/api/news', '/api/admin/me', '/health'])
      cases.push({ method: 'GET', path, label: 'header', headers })
  // (fetch refuses to send TRACE and CONNECT)
  for (const method of ['PUT', 'DELETE', 'PATCH', 'OPTIONS', 'FOO']) cases.push({ method, path: '/api/events', label: 'method' })
  cases.push({ method: 'GET', path: '/api/events/' + 'a/'.repeat(3000), label: 'deep path' })
  cases.push({ method: 'GET', path: '/api//events', label: 'double slash' })
  cases.push({ method: 'GET', path: '/api/events/%2e%2e/%2e%2e/etc/passwd', label: 'traversal' })
  cases.push({ method: 'GET', path: '/media/..%2f..%2fetc%2fpasswd', label: 'traversal' })
  return cases
}

export interface HostileFailure {
  case: HostileCase
  status: number
  body: string
}

/** What makes an answer acceptable: below 500, and a failure is the JSON envelope. */
export function judge(status: number, contentType: string | null, body: string, method: string): string | undefined {
  if (status >= 500) return `status ${status}`
  if (status < 400) return undefined
  if (method === 'HEAD') return undefined
  if (!contentType?.includes('application/json')) return `non-JSON ${status} (${contentType})`
  try {
    const parsed = JSON.parse(body)
    if (parsed?.success !== false || typeof parsed.error !== 'string' || !parsed.error) return `not the envelope`
  } catch {
    return 'unparseable JSON'
  }
}

/**
 * Refusals HTTP servers make before any application code, which no app or Caddyfile can shape:
 * Bun's empty 431 for a request head above ~16 KB (on `bun start`; Caddy turns it into the
 * envelope), and Go's plain-text 400 for a path with malformed percent-encoding (through Caddy).
 */
export function isProtocolRefusal(status: number, body: string, path: string): boolean {
  if (status === 431 && body === '' && path.length > 15_000) return true
  return status === 400 && body === '400 Bad Request' && /%(?![0-9a-fA-F]{2})/.test(path.split('?')[0]!)
}

export type Send = (c: HostileCase) => Promise<Response>

/** Sends every case, `concurrency` at a time; returns the ones judged wrong. */
export async function runHostile(send: Send, cases = hostileCases(), concurrency = 8) {
  const failures: Array<HostileFailure & { reason: string }> = []
  let next = 0
  let sent = 0
  let protocolRefusals = 0
  const worker = async () => {
    while (next < cases.length) {
      const c = cases[next++]!
      let res: Response
      try {
        res = await send(c)
      } catch (error) {
        failures.push({ case: c, status: 0, body: String(error), reason: 'request failed' })
        continue
      }
      sent++
      const text = await res.text().catch(() => '')
      const reason = judge(res.status, res.headers.get('content-type'), text, c.method)
      if (reason && isProtocolRefusal(res.status, text, c.path)) protocolRefusals++
      else if (reason) failures.push({ case: c, status: res.status, body: text.slice(0, 300), reason })
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker))
  return { sent, failures, protocolRefusals }
}

/** Over real HTTP: the raw path is sent as is (fetch keeps percent-escapes it is given). */
export const httpSender =
  (base: string): Send =>
  (c) =>
    fetch(base + c.path, {
      method: c.method,
      headers: c.headers,
      body: c.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(15_000),
    })

export function curlOf(base: string, c: HostileCase): string {
  const parts = [`curl -i -X ${c.method}`, `'${(base + c.path).slice(0, 500).replace(/'/g, "'\\''")}'`]
  for (const [k, v] of Object.entries(c.headers ?? {})) parts.push(`-H '${k}: ${String(v).slice(0, 200).replace(/'/g, "'\\''")}'`)
  if (typeof c.body === 'string') parts.push(`--data-raw '${c.body.slice(0, 300).replace(/'/g, "'\\''")}'`)
  return parts.join(' ')
}

if (import.meta.main) {
  const base = (process.argv[2] ?? 'http://localhost:3000').replace(/\/$/, '')
  const { sent, failures, protocolRefusals } = await runHostile(httpSender(base))
  for (const f of failures) console.log(`${f.reason}: ${f.case.label}\n  ${curlOf(base, f.case)}\n  -> ${f.body.slice(0, 200)}`)
  console.log(`${sent} requests, ${failures.length} wrong answers, ${protocolRefusals} refused by an HTTP server before the app`)
  process.exit(failures.length ? 1 : 0)
}
