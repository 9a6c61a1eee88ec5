import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { slugify } from '@app/db'
import { createLogger, createRateLimiter } from '@app/kit'
import { call, envelopeMessage, get, post, type TestResponse } from '@app/kit/testing'
import { createApp } from '../app'
import { createTestCatalog } from '../testing'
import { LIMITS, submitEvent } from './service'

let ctx: Awaited<ReturnType<typeof createTestCatalog>>
let categoryId: string
let inactiveCategoryId: string
let cityId: string

beforeAll(async () => {
  ctx = await createTestCatalog()
  ;[{ id: categoryId }] = await ctx.database.rows<{ id: string }>(
    sql`select id from categories where is_active order by sort_order limit 1`,
  )
  ;[{ id: inactiveCategoryId }] = await ctx.database.rows<{ id: string }>(
    sql`select id from categories where not is_active limit 1`,
  )
  ;[{ id: cityId }] = await ctx.database.rows<{ id: string }>(sql`select id from cities order by name limit 1`)
  // PGlite needs a few seconds to start, more on a busy machine
}, 60_000)
afterAll(async () => {
  await ctx?.database.close()
})

const SUBMIT = '/api/events/submit'
let serial = 0

/** A valid submission with a title no other test uses. */
function valid(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  serial++
  return {
    title: `Festival Uji Pengajuan ${serial}`,
    category_id: categoryId,
    start_date: '2027-03-14',
    organizer_name: 'Komunitas Penguji',
    contact_email: 'panitia@example.id',
    ...overrides,
  }
}

const submit = (body: unknown, headers?: Record<string, string>) => post(ctx.app, SUBMIT, body, { headers })

async function scalar(query: ReturnType<typeof sql>): Promise<number> {
  const [row] = await ctx.database.rows<{ n: number }>(query)
  return row.n
}
const countEvents = () => scalar(sql`select count(*)::int as n from events`)
const countTags = () => scalar(sql`select count(*)::int as n from tags`)
const countLinks = () => scalar(sql`select count(*)::int as n from event_tags`)

async function storedEvent(id: string): Promise<Record<string, any>> {
  const [raw] = await ctx.database.rows<Record<string, any>>(sql`
    select e.*, e.start_date::text as start_text, e.end_date::text as end_text, e.ticket_price_min::float8 as price_min,
      e.ticket_price_max::float8 as price_max,
      coalesce((select array_agg(t.name order by t.name) from event_tags et join tags t on t.id = et.tag_id
        where et.event_id = e.id), '{}') as tag_names
    from events e where e.id = ${id}`)
  if (!raw) return raw
  // dates as the API writes them, whatever the driver maps a date column to
  const { start_text, end_text, ...row } = raw
  return { ...row, start_date: start_text, end_date: end_text, tag_names: [...raw.tag_names].sort() }
}

function expectFieldError(res: TestResponse, field: string, contains?: string | RegExp) {
  expect(res.status).toBe(400)
  const message = envelopeMessage(res)
  const detail = res.body.details?.find((d: any) => d.field === field)
  if (!detail) throw new Error(`no error for ${field}: ${res.text}`)
  if (contains) expect(detail.message).toMatch(contains)
  // never framework text
  expect(res.text).not.toMatch(/Expected|property|must be|Unexpected/)
  return message
}

describe('POST /api/events/submit: stored as pending', () => {
  test('201 with {success, message, event: {id, title, slug}} and every field stored', async () => {
    const body = valid({
      title: '  Konser Senja di Pantai  ',
      city_id: cityId,
      end_date: '2027-03-15',
      start_time: '19:30',
      end_time: '22:00',
      event_type: 'hybrid',
      venue_name: 'Pantai Indah',
      venue_address: 'Jl. Pantai No. 1',
      contact_name: 'Sari',
      contact_phone: '+62 812-3456-7890',
      ticket_price_min: 50000,
      ticket_price_max: 150000,
      is_free: false,
      ticket_url: 'https://tiket.example.id/konser-senja',
      poster_url: 'https://cdn.example.id/uploads/2026/11/poster.jpg',
      short_description: 'Konser akustik saat matahari terbenam.',
      description: '<p>Bawa <strong>tikar</strong>.</p>',
      latitude: -8.7,
      longitude: 115.2,
    })
    const before = await countEvents()
    const res = await submit(body)
    expect(res.status).toBe(201)
    expect(res.body.success).toBe(true)
    expect(typeof res.body.message).toBe('string')
    expect(res.body.message.length).toBeGreaterThan(0)
    expect(Object.keys(res.body).sort()).toEqual(['event', 'message', 'success'])
    expect(Object.keys(res.body.event).sort()).toEqual(['id', 'slug', 'title'])
    expect(res.body.event.title).toBe('Konser Senja di Pantai')
    expect(res.body.event.slug).toBe(slugify('Konser Senja di Pantai'))
    expect(await countEvents()).toBe(before + 1)

    const row = await storedEvent(res.body.event.id)
    expect(row).toMatchObject({
      title: 'Konser Senja di Pantai',
      slug: res.body.event.slug,
      status: 'pending',
      category_id: categoryId,
      city_id: cityId,
      start_date: body.start_date,
      end_date: body.end_date,
      start_time: '19:30:00',
      end_time: '22:00:00',
      event_type: 'hybrid',
      venue_name: body.venue_name,
      venue_address: body.venue_address,
      organizer_name: body.organizer_name,
      contact_name: body.contact_name,
      contact_phone: body.contact_phone,
      contact_email: body.contact_email,
      price_min: body.ticket_price_min,
      price_max: body.ticket_price_max,
      is_free: false,
      ticket_url: body.ticket_url,
      poster_url: body.poster_url,
      short_description: body.short_description,
      description: body.description,
      latitude: body.latitude,
      longitude: body.longitude,
      published_at: null,
    })
  })

  test('defaults: end_date = start_date, event_type offline, no price means free', async () => {
    const res = await submit(valid())
    expect(res.status).toBe(201)
    const row = await storedEvent(res.body.event.id)
    expect(row.end_date).toBe(row.start_date)
    expect(row.event_type).toBe('offline')
    expect(row.is_free).toBe(true)
    expect([row.price_min, row.price_max]).toEqual([0, 0])
    expect(row.city_id).toBeNull()
    expect(row.start_time).toBeNull()
    expect(row.tag_names).toEqual([])
  })

  test('fields the client may not set have no effect', async () => {
    const forgedId = Bun.randomUUIDv7()
    const res = await submit(
      valid({
        id: forgedId,
        slug: 'slug-pilihan-sendiri',
        status: 'published',
        published_at: '2020-01-01T00:00:00Z',
        created_at: '2020-01-01T00:00:00Z',
        event_count: 999,
        view_count: 5000,
        gallery: [{ url: 'https://evil.example/x.jpg' }],
      }),
    )
    expect(res.status).toBe(201)
    expect(res.body.event.id).not.toBe(forgedId)
    expect(res.body.event.slug).not.toBe('slug-pilihan-sendiri')
    const row = await storedEvent(res.body.event.id)
    expect(row.status).toBe('pending')
    expect(row.published_at).toBeNull()
    expect(row.gallery).toEqual([])
    expect(new Date(row.created_at).getTime()).toBeGreaterThan(Date.now() - 60_000)
    expect(await scalar(sql`select count(*)::int as n from events where id = ${forgedId} or slug = 'slug-pilihan-sendiri'`)).toBe(
      0,
    )
    expect((await get(ctx.app, `/api/events/${res.body.event.slug}`)).status).toBe(404)
  })

  test('accepted spellings: is_free true/false/0/1, digit-string prices, null and empty optional fields, any case event_type', async () => {
    for (const [isFree, expected] of [
      [true, true],
      [1, true],
      ['1', true],
      [false, false],
      [0, false],
      ['0', false],
    ] as const) {
      const res = await submit(valid({ is_free: isFree }))
      expect(res.status).toBe(201)
      expect((await storedEvent(res.body.event.id)).is_free).toBe(expected)
    }
    const res = await submit(
      valid({
        ticket_price_min: '75000',
        ticket_price_max: null,
        city_id: null,
        end_date: '',
        start_time: null,
        event_type: 'ONLINE',
        contact_email: '',
        contact_phone: '0812 3456 7890',
        tags: null,
        description: null,
      }),
    )
    expect(res.status).toBe(201)
    const row = await storedEvent(res.body.event.id)
    expect([row.price_min, row.price_max, row.is_free]).toEqual([75000, 75000, false])
    expect(row.event_type).toBe('online')
    expect(row.end_date).toBe(row.start_date)
    expect(row.contact_email).toBe('')
    expect(row.contact_phone).toBe('0812 3456 7890')
    // a real leap day
    expect((await submit(valid({ start_date: '2028-02-29' }))).status).toBe(201)
  })
})

describe('a pending submission is invisible publicly', () => {
  test('detail 404, absent from lists, tag and category counts unchanged; total_events grows', async () => {
    const tagCounts = async () =>
      new Map<string, number>(
        (await get(ctx.app, '/api/tags?limit=100')).body.data.map((t: any) => [t.slug, t.event_count] as [string, number]),
      )
    const categoryCount = async () =>
      (await get(ctx.app, '/api/categories?limit=100')).body.data.find((c: any) => c.id === categoryId).event_count as number
    const stats = async () => (await get(ctx.app, '/api/stats')).body.stats
    const listIds = async () => {
      const ids: string[] = []
      for (let page = 1; ; page++) {
        const res = await get(ctx.app, `/api/events?limit=100&page=${page}`)
        ids.push(...res.body.data.map((e: any) => e.id))
        if (!res.body.pagination.has_next) return { ids, total: res.body.pagination.total as number }
      }
    }

    const [tagsBefore, categoryBefore, statsBefore, listBefore] = await Promise.all([
      tagCounts(),
      categoryCount(),
      stats(),
      listIds(),
    ])
    // the most used public tag, and a new one
    const popular = (await get(ctx.app, '/api/tags?limit=1')).body.data[0]
    expect(tagsBefore.get(popular.slug)).toBeGreaterThan(0)
    const title = 'Malam Keroncong Tersembunyi'
    const res = await submit(valid({ title, tags: `${popular.name}, Keroncong Rahasia` }))
    expect(res.status).toBe(201)
    const { id, slug } = res.body.event

    expect((await get(ctx.app, `/api/events/${slug}`)).status).toBe(404)
    expect((await get(ctx.app, `/api/events/${id}`)).status).toBe(404)
    const listAfter = await listIds()
    expect(listAfter.ids).not.toContain(id)
    expect(listAfter.total).toBe(listBefore.total)
    const search = await get(ctx.app, `/api/events?q=${encodeURIComponent('keroncong tersembunyi')}`)
    expect(search.body.data.map((e: any) => e.id)).not.toContain(id)
    expect((await get(ctx.app, '/api/events?tag=keroncong-rahasia')).body.pagination.total).toBe(0)
    expect(await tagCounts()).toEqual(tagsBefore)
    expect(await categoryCount()).toBe(categoryBefore)
    const statsAfter = await stats()
    expect(statsAfter.total_events).toBe(statsBefore.total_events + 1)
    expect(statsAfter.total_events).toBe(await countEvents())
    expect(statsAfter.published_events).toBe(statsBefore.published_events)

    // once approved it shows everywhere, with its tags
    await ctx.database.rows(sql`update events set status = 'published', published_at = now() where id = ${id}`)
    const detail = await get(ctx.app, `/api/events/${slug}`)
    expect(detail.status).toBe(200)
    expect(detail.body.event.tags.map((t: any) => t.name).sort()).toEqual(['Keroncong Rahasia', popular.name].sort())
    expect((await listIds()).total).toBe(listBefore.total + 1)
    const tagsApproved = await tagCounts()
    expect(tagsApproved.get(popular.slug)).toBe(tagsBefore.get(popular.slug)! + 1)
    expect(tagsApproved.get('keroncong-rahasia')).toBe(1)
    expect(await categoryCount()).toBe(categoryBefore + 1)
    expect((await stats()).published_events).toBe(statsBefore.published_events + 1)
  })
})

describe('validation: 400 envelope naming the field, nothing stored', () => {
  const long = (n: number) => 'a'.repeat(n)
  const cases: [string, () => Record<string, unknown>, string, RegExp][] = [
    ['missing title', () => valid({ title: undefined }), 'title', /^Judul wajib diisi$/],
    ['blank title', () => valid({ title: '   ' }), 'title', /Judul wajib diisi/],
    ['title too short', () => valid({ title: 'ab' }), 'title', /Judul minimal 3/],
    ['title too long', () => valid({ title: long(LIMITS.titleMax + 1) }), 'title', /Judul maksimal 200/],
    ['missing category_id', () => valid({ category_id: undefined }), 'category_id', /Kategori.*wajib diisi/],
    ['unknown category_id', () => valid({ category_id: Bun.randomUUIDv7() }), 'category_id', /Kategori.*tidak ditemukan/],
    ['inactive category', () => valid({ category_id: inactiveCategoryId }), 'category_id', /Kategori.*tidak aktif/],
    ['unknown city_id', () => valid({ city_id: 'kota-tidak-ada' }), 'city_id', /Kota.*tidak ditemukan/],
    ['missing start_date', () => valid({ start_date: undefined }), 'start_date', /Tanggal mulai wajib diisi/],
    ['impossible date', () => valid({ start_date: '2026-02-30' }), 'start_date', /Tanggal mulai tidak valid/],
    ['month 13', () => valid({ start_date: '2026-13-01' }), 'start_date', /Tanggal mulai tidak valid/],
    ['day-first date', () => valid({ start_date: '14-03-2027' }), 'start_date', /Tanggal mulai/],
    ['short date', () => valid({ start_date: '2027-3-4' }), 'start_date', /Tanggal mulai/],
    ['not a leap year', () => valid({ end_date: '2027-02-29' }), 'end_date', /Tanggal selesai tidak valid/],
    ['end before start', () => valid({ end_date: '2027-03-13' }), 'end_date', /Tanggal selesai tidak boleh sebelum/],
    ['hour 25', () => valid({ start_time: '25:00' }), 'start_time', /Jam mulai/],
    ['time with a dot', () => valid({ start_time: '19.30' }), 'start_time', /Jam mulai/],
    ['time 7pm', () => valid({ start_time: '7pm' }), 'start_time', /Jam mulai/],
    ['end_time 24:00', () => valid({ end_time: '24:00' }), 'end_time', /Jam selesai/],
    ['bad event_type', () => valid({ event_type: 'festival' }), 'event_type', /Jenis event/],
    ['missing organizer_name', () => valid({ organizer_name: undefined }), 'organizer_name', /Nama penyelenggara wajib/],
    [
      'no contact',
      () => valid({ contact_email: undefined, contact_phone: '' }),
      'contact_phone',
      /telepon kontak atau email kontak wajib/,
    ],
    ['bad email', () => valid({ contact_email: 'bukan-email' }), 'contact_email', /Email kontak tidak valid/],
    ['email with a script', () => valid({ contact_email: '<script>@x.id' }), 'contact_email', /Email kontak/],
    ['bad phone', () => valid({ contact_phone: 'telepon saya' }), 'contact_phone', /Nomor telepon kontak tidak valid/],
    ['negative price', () => valid({ ticket_price_min: -1 }), 'ticket_price_min', /Harga tiket minimum tidak boleh negatif/],
    [
      'non-numeric price',
      () => valid({ ticket_price_min: 'gratis' }),
      'ticket_price_min',
      /Harga tiket minimum harus berupa angka/,
    ],
    ['ambiguous price text', () => valid({ ticket_price_min: '50.000' }), 'ticket_price_min', /Harga tiket minimum/],
    ['huge price', () => valid({ ticket_price_min: 1e15 }), 'ticket_price_min', /Harga tiket minimum maksimal/],
    [
      'max below min',
      () => valid({ ticket_price_min: 100000, ticket_price_max: 5000 }),
      'ticket_price_max',
      /Harga tiket maksimum tidak boleh lebih kecil/,
    ],
    ['negative max', () => valid({ ticket_price_max: -5 }), 'ticket_price_max', /Harga tiket maksimum/],
    ['is_free ya', () => valid({ is_free: 'ya' }), 'is_free', /is_free/],
    ['is_free 2', () => valid({ is_free: 2 }), 'is_free', /is_free/],
    ['free but priced', () => valid({ is_free: true, ticket_price_min: 50000 }), 'is_free', /gratis/],
    ['javascript: ticket_url', () => valid({ ticket_url: 'javascript:alert(1)' }), 'ticket_url', /Link tiket.*http/],
    ['ftp ticket_url', () => valid({ ticket_url: 'ftp://example.id/tiket' }), 'ticket_url', /Link tiket/],
    ['relative ticket_url', () => valid({ ticket_url: '/tiket' }), 'ticket_url', /Link tiket/],
    ['data: poster_url', () => valid({ poster_url: 'data:text/html,<script>alert(1)</script>' }), 'poster_url', /URL poster/],
    ['javascript: poster_url', () => valid({ poster_url: 'JavaScript:alert(1)' }), 'poster_url', /URL poster/],
    ['11 tags', () => valid({ tags: Array.from({ length: 11 }, (_, i) => `tag${i}`).join(',') }), 'tags', /Tag maksimal 10/],
    ['tag over 40 chars', () => valid({ tags: `ok, ${long(LIMITS.tagLengthMax + 1)}` }), 'tags', /maksimal 40 karakter/],
    ['tag without letters', () => valid({ tags: 'musik, !!!' }), 'tags', /huruf atau angka/],
    ['latitude 91', () => valid({ latitude: 91, longitude: 100 }), 'latitude', /Latitude/],
    ['longitude -181', () => valid({ latitude: 1, longitude: -181 }), 'longitude', /Longitude/],
    ['latitude alone', () => valid({ latitude: -6.2 }), 'longitude', /bersama/],
    ['description too long', () => valid({ description: long(LIMITS.descriptionMax + 1) }), 'description', /Deskripsi maksimal/],
    [
      'short_description too long',
      () => valid({ short_description: long(LIMITS.shortDescriptionMax + 1) }),
      'short_description',
      /Deskripsi singkat maksimal/,
    ],
    ['venue_name too long', () => valid({ venue_name: long(LIMITS.venueNameMax + 1) }), 'venue_name', /Nama tempat maksimal/],
  ]

  for (const [name, body, field, message] of cases)
    test(name, async () => {
      const before = await countEvents()
      const res = await submit(body())
      expectFieldError(res, field, message)
      expect(await countEvents()).toBe(before)
    })

  test('every failure at once, in field order; the envelope error is the first one', async () => {
    const res = await submit({ start_date: '2026-02-30', ticket_price_min: -1, ticket_url: 'javascript:x' })
    expect(res.status).toBe(400)
    const fields = res.body.details.map((d: any) => d.field)
    expect(fields).toEqual([
      'title',
      'category_id',
      'start_date',
      'organizer_name',
      'contact_phone',
      'contact_email',
      'ticket_price_min',
      'ticket_url',
    ])
    expect(res.body.error).toBe('Judul wajib diisi')
    expect(res.body.error).toBe(res.body.details[0].message)
  })

  test('an unknown category and city are named with the other failures, not only once the rest is valid', async () => {
    const res = await submit(valid({ category_id: Bun.randomUUIDv7(), city_id: 'kota-tidak-ada', start_date: '2026-02-30' }))
    expect(res.status).toBe(400)
    expect(res.body.details.map((d: any) => [d.field, d.message])).toEqual([
      ['category_id', 'Kategori (category_id) tidak ditemukan'],
      ['city_id', 'Kota (city_id) tidak ditemukan'],
      ['start_date', 'Tanggal mulai tidak valid: gunakan tanggal yang ada dengan format YYYY-MM-DD'],
    ])
  })

  test('an empty object names every required field', async () => {
    const res = await submit({})
    expect(res.status).toBe(400)
    expect(res.body.details.map((d: any) => d.field)).toEqual([
      'title',
      'category_id',
      'start_date',
      'organizer_name',
      'contact_phone',
      'contact_email',
    ])
  })
})

describe('wrong JSON types: 400 with Indonesian text, never 422 or framework text', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['title number', { title: 123 }, 'title'],
    ['title boolean', { title: true }, 'title'],
    ['title object', { title: { $ne: null } }, 'title'],
    ['title array', { title: ['Konser'] }, 'title'],
    ['tags array', { tags: ['musik', 'jazz'] }, 'tags'],
    ['category_id number', { category_id: 5 }, 'category_id'],
    ['start_date number', { start_date: 20270314 }, 'start_date'],
    ['organizer_name array', { organizer_name: ['x'] }, 'organizer_name'],
    ['contact_email object', { contact_email: {} }, 'contact_email'],
    ['price boolean', { ticket_price_min: true }, 'ticket_price_min'],
    ['price array', { ticket_price_min: [1] }, 'ticket_price_min'],
    ['is_free object', { is_free: { yes: 1 } }, 'is_free'],
    ['description number', { description: 42 }, 'description'],
    ['latitude text', { latitude: 'utara', longitude: 1 }, 'latitude'],
  ]
  for (const [name, override, field] of cases)
    test(name, async () => {
      const before = await countEvents()
      const res = await submit(valid(override))
      expect(res.status).toBe(400)
      const message = expectFieldError(res, field)
      expect(message).toMatch(/harus|tidak valid/)
      expect(await countEvents()).toBe(before)
    })

  test('several wrong types are reported together', async () => {
    const res = await submit(valid({ title: 1, tags: [1], is_free: [] }))
    expect(res.status).toBe(400)
    expect(res.body.details.map((d: any) => d.field).sort()).toEqual(['is_free', 'tags', 'title'])
  })

  test('a body that is not an object', async () => {
    for (const body of [[], [valid()], 'judul', 42, null, true]) {
      const res = await submit(body)
      expect(res.status).toBe(400)
      expect(envelopeMessage(res)).toBe('Data pengajuan harus berupa objek JSON')
    }
  })

  test('malformed JSON: 400; not JSON at all: 415', async () => {
    const malformed = await call(ctx.app, 'POST', SUBMIT, {
      rawBody: '{"title": "Konser",',
      headers: { 'content-type': 'application/json' },
    })
    expect(malformed.status).toBe(400)
    expect(envelopeMessage(malformed)).toBe('Format JSON tidak valid')
    const before = await countEvents()
    for (const [type, rawBody] of [
      ['application/x-www-form-urlencoded', 'title=Konser+Form&organizer_name=x'],
      ['text/plain', JSON.stringify(valid())],
      ['multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="title"\r\n\r\nKonser\r\n--x--\r\n'],
    ]) {
      const res = await call(ctx.app, 'POST', SUBMIT, { rawBody, headers: { 'content-type': type } })
      expect(res.status).toBe(415)
      expect(envelopeMessage(res)).toContain('JSON')
    }
    expect(await countEvents()).toBe(before)
  })
})

describe('hostile strings', () => {
  test('XSS in the description is sanitised before it is stored and when published', async () => {
    const payloads = [
      '<script>alert(1)</script>',
      '<img src=x onerror=alert(1)>',
      '<a href="javascript:alert(1)">klik</a>',
      '<a href="JaVaScRiPt:alert(1)">klik2</a>',
      '<svg onload=alert(1)><circle/></svg>',
      '<iframe src="https://evil.example"></iframe>',
      '<p style="background:url(javascript:alert(1))" onmouseover="alert(1)">teks aman</p>',
      '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)></style></mglyph></table></mtext></math>',
      '<object data="data:text/html,<script>alert(1)</script>"></object>',
      '<form action="https://evil.example"><input name=x></form>',
    ]
    const description = `<h2>Judul</h2><p>Halo <strong>semua</strong> <em>teman</em></p><ul><li>satu</li></ul><a href="https://example.id/info" onclick="steal()">info</a>${payloads.join('')}`
    const res = await submit(valid({ description }))
    expect(res.status).toBe(201)
    const stored: string = (await storedEvent(res.body.event.id)).description
    for (const bad of [
      /<script/i,
      /onerror/i,
      /onclick/i,
      /onload/i,
      /onmouseover/i,
      /javascript:/i,
      /<iframe/i,
      /<svg/i,
      /<img/i,
      /<object/i,
      /<form/i,
      /<input/i,
      /<style/i,
      /style=/i,
      /alert\(1\)/,
    ])
      expect(stored).not.toMatch(bad)
    // the harmless formatting and the safe link survive
    expect(stored).toContain('<h2>Judul</h2>')
    expect(stored).toContain('<strong>semua</strong>')
    expect(stored).toContain('<li>satu</li>')
    expect(stored).toContain('href="https://example.id/info"')
    expect(stored).toContain('rel="nofollow noopener noreferrer"')
    expect(stored).toContain('teks aman')

    await ctx.database.rows(sql`update events set status = 'published' where id = ${res.body.event.id}`)
    const detail = await get(ctx.app, `/api/events/${res.body.event.slug}`)
    expect(detail.status).toBe(200)
    expect(detail.body.event.description).toBe(stored)
  })

  test('SQL fragments and markup in plain fields are stored literally', async () => {
    const title = `Konser'); DROP TABLE events; --`
    const organizer = `Robert"); DELETE FROM tags WHERE ('1'='1`
    const venue = `<b>Gedung</b> ' OR 1=1 --`
    const tagsBefore = await countTags()
    const res = await submit(
      valid({ title, organizer_name: organizer, venue_name: venue, tags: `x' OR '1'='1, "; drop table tags; --` }),
    )
    expect(res.status).toBe(201)
    expect(res.body.event.title).toBe(title)
    const row = await storedEvent(res.body.event.id)
    expect(row.title).toBe(title)
    expect(row.organizer_name).toBe(organizer)
    expect(row.venue_name).toBe(venue)
    expect(row.tag_names).toEqual([`"; drop table tags; --`, `x' OR '1'='1`].sort())
    expect(
      await scalar(sql`select count(*)::int as n from information_schema.tables where table_name in ('events', 'tags')`),
    ).toBe(2)
    expect(row.slug).toBe(slugify(title))
    expect(await countTags()).toBe(tagsBefore + 2)
    expect(await countEvents()).toBeGreaterThan(50)
  })

  test('control characters and NUL never reach the database: 400 at the edge, nothing stored', async () => {
    const before = await countEvents()
    const res = await submit(
      valid({ title: 'Konser\u0000 Malam\u0007 Ini', organizer_name: 'Org\u0000', description: '<p>a\u0000b</p>' }),
    )
    expect(res.status).toBe(400)
    expect(res.body.success).toBe(false)
    expect(await countEvents()).toBe(before)
    // tabs and line breaks are text
    const ok = await submit(valid({ description: '<p>baris satu\nbaris\tdua</p>' }))
    expect(ok.status).toBe(201)
  })

  test('a title with no Latin letters still gets a slug', async () => {
    const res = await submit(valid({ title: '音楽祭の夜' }))
    expect(res.status).toBe(201)
    expect(res.body.event.slug).toMatch(/^event(-\d+)?$/)
  })
})

/** A demo tag with a one-word name whose slug is the name lower-cased (e.g. "Jazz"). */
async function seededTag() {
  const rows = await ctx.database.rows<{ id: string; name: string; slug: string }>(
    sql`select id, name, slug from tags where name ~ '^[A-Z][a-z]+$' and slug = lower(name) order by created_at, name`,
  )
  expect(rows.length).toBeGreaterThan(0)
  return rows[0]
}

describe('tags', () => {
  test('trimmed, de-duplicated case-insensitively, existing reused, new created with a slug and linked', async () => {
    const existing = await seededTag()
    const upper = existing.name.toUpperCase()
    const lower = existing.name.toLowerCase()
    expect(upper).not.toBe(existing.name)
    const tagsBefore = await countTags()
    const res = await submit(valid({ tags: `  ${upper} , Angklung  Modern,, ${lower},ANGKLUNG MODERN ,  ` }))
    expect(res.status).toBe(201)
    expect(await countTags()).toBe(tagsBefore + 1)
    const linked = await ctx.database.rows<{ id: string; name: string; slug: string }>(sql`
      select t.id, t.name, t.slug from event_tags et join tags t on t.id = et.tag_id
      where et.event_id = ${res.body.event.id} order by t.name`)
    expect(linked).toHaveLength(2)
    const created = linked.find((t) => t.id !== existing.id)!
    expect(created).toMatchObject({ name: 'Angklung Modern', slug: slugify('Angklung Modern') })
    expect(linked.find((t) => t.id === existing.id)).toEqual(existing)

    // the next submission reuses the tag created by the first
    const again = await submit(valid({ tags: 'angklung modern' }))
    expect(again.status).toBe(201)
    expect(await countTags()).toBe(tagsBefore + 1)
    const [{ tag_id }] = await ctx.database.rows<{ tag_id: string }>(
      sql`select tag_id from event_tags where event_id = ${again.body.event.id}`,
    )
    expect(tag_id).toBe(created.id)
  })

  test('a new tag whose slug is taken by another tag gets a -2 slug', async () => {
    // "Jazz!" is a different name from "Jazz" but slugifies to the same "jazz"
    const existing = await seededTag()
    const res = await submit(valid({ tags: `${existing.name}!` }))
    expect(res.status).toBe(201)
    const [tag] = await ctx.database.rows<{ name: string; slug: string }>(sql`
      select t.name, t.slug from event_tags et join tags t on t.id = et.tag_id where et.event_id = ${res.body.event.id}`)
    expect(tag.name).toBe(`${existing.name}!`)
    expect(slugify(tag.name)).toBe(existing.slug)
    const taken = await scalar(sql`select count(*)::int as n from tags where slug ~ ${`^${existing.slug}(-[0-9]+)?$`}`)
    expect(taken).toBe(2)
    expect(tag.slug).toBe(`${existing.slug}-2`)
  })
})

describe('slugs', () => {
  test('the same title twice: slug, then slug-2', async () => {
    const title = 'Pasar Malam Kembar'
    const first = await submit(valid({ title }))
    const second = await submit(valid({ title }))
    expect([first.status, second.status]).toEqual([201, 201])
    expect(first.body.event.slug).toBe(slugify(title))
    expect(second.body.event.slug).toBe(`${slugify(title)}-2`)
  })

  test('concurrent submissions with the same title all get 201 and different slugs', async () => {
    const title = 'Lomba Serentak Bersamaan'
    const responses = await Promise.all(Array.from({ length: 6 }, () => submit(valid({ title }))))
    expect(responses.map((r) => r.status)).toEqual(Array(6).fill(201))
    const slugs = responses.map((r) => r.body.event.slug)
    expect(new Set(slugs).size).toBe(6)
    const base = slugify(title)
    expect(new Set(slugs)).toEqual(new Set([base, ...[2, 3, 4, 5, 6].map((n) => `${base}-${n}`)]))
    expect(await scalar(sql`select count(*)::int as n from events where title = ${title}`)).toBe(6)
  })

  test('concurrent submissions sharing a new tag all get 201: the tag is created once and linked to each', async () => {
    // they wait on each other's tag row and on the data version's row lock: PostgreSQL breaks the
    // cycle as a deadlock, and the submission runs its transaction again
    for (let round = 0; round < 3; round++) {
      const tag = `Tag Serentak ${round}`
      const responses = await Promise.all(
        Array.from({ length: 6 }, () => submit(valid({ title: `Serentak Bertag ${round}`, tags: `Musik, ${tag}` }))),
      )
      expect(responses.map((r) => r.status)).toEqual(Array(6).fill(201))
      expect(await scalar(sql`select count(*)::int as n from tags where lower(name) = lower(${tag})`)).toBe(1)
      expect(
        await scalar(sql`select count(*)::int as n from event_tags et join tags t on t.id = et.tag_id where t.name = ${tag}`),
      ).toBe(6)
    }
  })

  test('a slug taken between choosing it and inserting (the race) is retried with the next suffix', async () => {
    // a rival takes the chosen slug at the moment the event goes in (a trigger in the same
    // statement, once per title): the insert then finds it taken and picks the next one; with a
    // new tag (in a transaction) and without (one statement)
    const titles = ['Balapan Slug Paksa', 'Balapan Slug Paksa Tanpa Tag']
    await ctx.database.rows(sql`
      create or replace function test_rival_takes_slug() returns trigger language plpgsql as $$
      begin
        if new.organizer_name <> 'Pesaing' and new.title in (${sql.raw(titles.map((t) => `'${t}'`).join(', '))})
          and not exists (select 1 from events where title = new.title and organizer_name = 'Pesaing') then
          insert into events (id, title, slug, start_date, end_date, category_id, organizer_name)
          values (gen_random_uuid()::text, new.title, new.slug, '2027-01-01', '2027-01-01', new.category_id, 'Pesaing');
        end if;
        return new;
      end
      $$`)
    await ctx.database.rows(
      sql`create trigger test_rival_takes_slug before insert on events for each row execute function test_rival_takes_slug()`,
    )
    try {
      for (const [title, tags] of [
        [titles[0], 'Balapan Tag'],
        [titles[1], ''],
      ]) {
        const base = slugify(title)
        const result = await submitEvent(ctx.database, valid({ title, tags }) as any)
        expect(result.ok).toBe(true)
        if (!result.ok) return
        expect(result.event.slug).toBe(`${base}-2`)
        const row = await storedEvent(result.event.id)
        expect(row.slug).toBe(`${base}-2`)
        expect(row.tag_names).toEqual(tags ? [tags] : [])
        const rivals = await ctx.database.rows<{ slug: string }>(
          sql`select slug from events where title = ${title} and organizer_name = 'Pesaing'`,
        )
        expect(rivals).toEqual([{ slug: base }])
      }
    } finally {
      await ctx.database.rows(sql`drop trigger test_rival_takes_slug on events`)
      await ctx.database.rows(sql`drop function test_rival_takes_slug()`)
    }
  })
})

describe('one transaction', () => {
  test('a failure after the event insert leaves no event, no tag and no link behind', async () => {
    const [events0, tags0, links0] = [await countEvents(), await countTags(), await countLinks()]
    const title = 'Event Yang Gagal Disimpan'
    let seenInside: number[] = []
    let eventId = ''
    const attempt = submitEvent(ctx.database, valid({ title, tags: 'Tag Gagal Satu, Tag Gagal Dua, Musik' }) as any, {
      afterWrites: async (tx, id) => {
        eventId = id
        const result: any = await tx.execute(sql`
          select (select count(*)::int from events where id = ${id}) as e,
                 (select count(*)::int from tags where name in ('Tag Gagal Satu', 'Tag Gagal Dua')) as t,
                 (select count(*)::int from event_tags where event_id = ${id}) as l`)
        // postgres.js returns the rows, PGlite an object holding them
        const r = Array.isArray(result) ? result[0] : result.rows[0]
        seenInside = [r.e, r.t, r.l]
        throw new Error('disk penuh (simulasi)')
      },
    })
    await expect(attempt).rejects.toThrow('disk penuh (simulasi)')
    expect(eventId).not.toBe('')
    expect(seenInside).toEqual([1, 2, 3])
    expect([await countEvents(), await countTags(), await countLinks()]).toEqual([events0, tags0, links0])
    expect(await scalar(sql`select count(*)::int as n from events where title = ${title} or id = ${eventId}`)).toBe(0)
    expect(await scalar(sql`select count(*)::int as n from tags where name like 'Tag Gagal%'`)).toBe(0)
  })

  test('the same failure through HTTP-level rules: a refused submission writes nothing', async () => {
    const [events0, tags0, links0] = [await countEvents(), await countTags(), await countLinks()]
    const res = await submit(valid({ tags: 'Tag Baru Tertolak', start_date: '2026-02-30' }))
    expect(res.status).toBe(400)
    expect([await countEvents(), await countTags(), await countLinks()]).toEqual([events0, tags0, links0])
  })
})

describe('the write', () => {
  test('known tags: one statement writes and commits, no transaction held across round trips; a new tag: one transaction', async () => {
    // under a read load each round trip waits for a turn of the service's event loop: a lock
    // held across them kept other submissions and approvals waiting (bench mix with writes)
    const db = ctx.database.db as any
    const original = db.transaction
    let transactions = 0
    db.transaction = function (this: unknown, ...args: unknown[]) {
      transactions++
      return original.apply(this, args)
    }
    const version = () => scalar(sql`select version::int as n from data_versions where scope = 'public'`)
    try {
      const known = await seededTag()
      const before = await version()
      const result = await submitEvent(ctx.database, valid({ tags: known.name.toLowerCase() }) as any)
      expect(result.ok).toBe(true)
      if (!result.ok) return
      expect(transactions).toBe(0)
      // the version it answers with (the writer then waits for every replica to hold it) is the
      // one its writes left, read after their triggers
      const after = await version()
      expect(after).toBeGreaterThan(before)
      expect(result.version).toBe(after)
      expect((await storedEvent(result.event.id)).tag_names).toEqual([known.name])

      const created = await submitEvent(ctx.database, valid({ tags: `${known.name}, Tag Baru Sekali Tulis` }) as any)
      expect(created.ok).toBe(true)
      if (!created.ok) return
      expect(transactions).toBe(1)
      expect(created.version).toBe(await version())
      expect((await storedEvent(created.event.id)).tag_names.sort()).toEqual([known.name, 'Tag Baru Sekali Tulis'].sort())
    } finally {
      db.transaction = original
    }
  })
})

describe('abuse limits', () => {
  test('JSON body over 64 KB: 413 envelope (1 MB, just over 64 KB, streamed), nothing stored', async () => {
    const before = await countEvents()
    const oneMb = await submit(valid({ description: 'x'.repeat(1024 * 1024) }))
    expect(oneMb.status).toBe(413)
    expect(envelopeMessage(oneMb)).toBe('Ukuran data melebihi batas yang diizinkan')

    const body = valid()
    const padding = 64 * 1024 - JSON.stringify({ ...body, description: '' }).length + 1
    const justOver = JSON.stringify({ ...body, description: 'y'.repeat(padding) })
    expect(Buffer.byteLength(justOver)).toBe(64 * 1024 + 1)
    expect(
      (await call(ctx.app, 'POST', SUBMIT, { rawBody: justOver, headers: { 'content-type': 'application/json' } })).status,
    ).toBe(413)
    const atLimit = JSON.stringify({ ...body, description: 'y'.repeat(padding - 1) })
    // exactly 64 KB is parsed (and then refused by the description length rule, not by size)
    const atLimitRes = await call(ctx.app, 'POST', SUBMIT, { rawBody: atLimit, headers: { 'content-type': 'application/json' } })
    expect(atLimitRes.status).toBe(400)
    expect(atLimitRes.body.details[0].field).toBe('description')

    const bytes = new TextEncoder().encode(JSON.stringify(valid({ description: 'z'.repeat(1024 * 1024) })))
    const stream = new ReadableStream({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 16 * 1024) controller.enqueue(bytes.slice(i, i + 16 * 1024))
        controller.close()
      },
    })
    const streamed = await ctx.app.handle(
      new Request(`http://localhost${SUBMIT}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: stream }),
    )
    expect(streamed.status).toBe(413)
    expect(await countEvents()).toBe(before)
  })

  test('more than the hourly limit per client address: 429 with Retry-After; other addresses unaffected', async () => {
    const limit = 3
    const app = createApp({
      database: ctx.database,
      rateLimiter: createRateLimiter(ctx.database),
      submitLimitPerHour: limit,
      trustedProxies: ['*'],
      logger: createLogger('silent'),
    })
    const from = (ip: string) => ({ headers: { 'x-forwarded-for': ip } })
    const before = await countEvents()
    // invalid attempts count too
    expect((await post(app, SUBMIT, valid({ title: undefined }), from('203.0.113.7'))).status).toBe(400)
    for (let i = 1; i < limit; i++) expect((await post(app, SUBMIT, valid(), from('203.0.113.7'))).status).toBe(201)
    const limited = await post(app, SUBMIT, valid(), from('203.0.113.7'))
    expect(limited.status).toBe(429)
    expect(envelopeMessage(limited)).toBe('Terlalu banyak permintaan, coba lagi nanti')
    const retryAfter = Number(limited.headers.get('retry-after'))
    expect(Number.isInteger(retryAfter)).toBe(true)
    expect(retryAfter).toBeGreaterThan(0)
    expect(retryAfter).toBeLessThanOrEqual(3600)
    expect(await countEvents()).toBe(before + limit - 1)
    // still limited, and a different client is not
    expect((await post(app, SUBMIT, valid(), from('203.0.113.7'))).status).toBe(429)
    expect((await post(app, SUBMIT, valid(), from('198.51.100.20'))).status).toBe(201)
  })
})
