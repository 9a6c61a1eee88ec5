import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sql, type SQL } from 'drizzle-orm'
import { envelopeMessage, get } from '@app/kit/testing'
import { createTestNews } from '../testing'

let ctx: Awaited<ReturnType<typeof createTestNews>>

// Beside the demo articles: one scheduled for later, two with the same published_at (ties),
// one whose category label is written in lower case, one with a word found only in its body.
const TIE_AT = new Date(Date.now() - 400 * 86_400_000)
beforeAll(async () => {
  ctx = await createTestNews()
  const add = (slug: string, fields: { category?: string; publishedAt: SQL; featured?: boolean; content?: string }) =>
    ctx.database.rows(sql`
      insert into news_articles (id, title, slug, excerpt, content, cover_url, category, author_name, is_featured, status, published_at)
      values (${Bun.randomUUIDv7()}, ${`Artikel ${slug}`}, ${slug}, ${`Ringkasan ${slug}`},
        ${fields.content ?? '<p>Isi artikel uji.</p>'}, ${`https://cdn.example.id/${slug}.jpg`}, ${fields.category ?? 'Tips'},
        'Penulis Uji', ${fields.featured ?? false}, 'published', ${fields.publishedAt})`)
  await add('artikel-terjadwal', { publishedAt: sql`now() + interval '2 days'`, featured: true })
  await add('artikel-seri-a', { publishedAt: sql`${TIE_AT.toISOString()}::timestamptz` })
  await add('artikel-seri-b', { publishedAt: sql`${TIE_AT.toISOString()}::timestamptz` })
  await add('ulasan-label-kecil', { category: 'review', publishedAt: sql`now() - interval '3 hours'` })
  await add('artikel-kata-langka', {
    publishedAt: sql`now() - interval '500 days'`,
    content: '<p>Pertunjukan gamelanistis yang jarang ditemui.</p>',
  })
  // PGlite needs a few seconds to start, more on a busy machine
}, 60_000)
afterAll(async () => {
  await ctx?.database.close()
})

type Row = { id: string; slug: string; category: string; is_featured: boolean; published_at: string }

/** Public articles (published, not scheduled) matching `where`, in the documented order. */
async function expected(where: SQL = sql`true`): Promise<Row[]> {
  return ctx.database.rows<Row>(sql`
    select id, slug, category, is_featured, to_char(published_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as published_at
    from news_articles
    where status = 'published' and published_at <= now() and ${where}
    order by published_at desc, id desc`)
}

/** Every item of a list URL, walking all pages of 50. */
async function all(path: string) {
  const items: any[] = []
  for (let page = 1; ; page++) {
    const res = await get(ctx.app, `${path}${path.includes('?') ? '&' : '?'}limit=50&page=${page}`)
    expect(res.status).toBe(200)
    items.push(...res.body.data)
    if (!res.body.pagination.has_next) return { items, total: res.body.pagination.total as number }
  }
}

describe('GET /api/news', () => {
  test('default page: 9 newest public articles, contract fields, events-style pagination', async () => {
    const rows = await expected()
    const res = await get(ctx.app, '/api/news')
    expect(res.status).toBe(200)
    expect(res.body.success).toBe(true)
    expect(res.body.data.map((a: any) => a.id)).toEqual(rows.slice(0, 9).map((r) => r.id))
    expect(res.body.pagination).toEqual({
      page: 1,
      limit: 9,
      total: rows.length,
      total_pages: Math.ceil(rows.length / 9),
      has_next: rows.length > 9,
      has_prev: false,
      next_page: rows.length > 9 ? 2 : null,
      prev_page: null,
    })
    for (const item of res.body.data) {
      expect(Object.keys(item).sort()).toEqual(
        ['id', 'title', 'slug', 'excerpt', 'cover_url', 'category', 'author_name', 'published_at'].sort(),
      )
      for (const key of Object.keys(item)) expect(typeof item[key]).toBe('string')
      expect(item.published_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/)
    }
    expect(res.body.data.map((a: any) => a.published_at)).toEqual(rows.slice(0, 9).map((r) => r.published_at))
  })

  test('only published articles whose time has come; newest first, ties by id', async () => {
    const rows = await expected()
    const { items, total } = await all('/api/news')
    expect(total).toBe(rows.length)
    expect(items.map((a) => a.id)).toEqual(rows.map((r) => r.id))
    const slugs = items.map((a) => a.slug)
    const [{ n: drafts }] = await ctx.database.rows<{ n: number }>(
      sql`select count(*)::int as n from news_articles where status = 'draft'`,
    )
    expect(drafts).toBeGreaterThan(0)
    const hidden = await ctx.database.rows<{ slug: string }>(
      sql`select slug from news_articles where status <> 'published' or published_at > now()`,
    )
    expect(hidden.map((h) => h.slug)).toContain('artikel-terjadwal')
    for (const { slug } of hidden) expect(slugs).not.toContain(slug)
    // the two articles published at the same instant: higher id first
    const ties = items.filter((a) => a.slug.startsWith('artikel-seri-'))
    expect(ties).toHaveLength(2)
    expect(ties[0].id > ties[1].id).toBe(true)
    const times = items.map((a) => Date.parse(a.published_at))
    expect(times).toEqual([...times].sort((a, b) => b - a))
  })

  test('kategori matches the label case-insensitively', async () => {
    for (const label of ['tips', 'TIPS', 'Tips', ' tips ']) {
      const { items, total } = await all(`/api/news?kategori=${encodeURIComponent(label)}`)
      const rows = await expected(sql`lower(category) = 'tips'`)
      expect(total).toBe(rows.length)
      expect(items.map((a) => a.id)).toEqual(rows.map((r) => r.id))
      for (const a of items) expect(a.category.toLowerCase()).toBe('tips')
    }
    const review = await all('/api/news?kategori=Review')
    expect(review.items.map((a) => a.slug)).toContain('ulasan-label-kecil')
    expect(review.total).toBe((await expected(sql`lower(category) = 'review'`)).length)
    expect(new Set(review.items.map((a) => a.category))).toEqual(new Set(['Review', 'review']))
  })

  test('unknown kategori: 200 with an empty list', async () => {
    const res = await get(ctx.app, '/api/news?kategori=tidak-ada')
    expect(res.status).toBe(200)
    expect(res.body.data).toEqual([])
    expect(res.body.pagination).toMatchObject({ total: 0, total_pages: 0, has_next: false, next_page: null })
  })

  test('featured=1 editor picks only, featured=0 the others', async () => {
    const picks = await all('/api/news?featured=1')
    const others = await all('/api/news?featured=0')
    const pickRows = await expected(sql`is_featured`)
    expect(pickRows.length).toBeGreaterThan(0)
    expect(picks.items.map((a) => a.id)).toEqual(pickRows.map((r) => r.id))
    expect(others.items.map((a) => a.id)).toEqual((await expected(sql`not is_featured`)).map((r) => r.id))
    expect(picks.total + others.total).toBe((await expected()).length)
    // the scheduled article is a pick, but not yet public
    expect(picks.items.map((a) => a.slug)).not.toContain('artikel-terjadwal')
  })

  test('featured combines with kategori', async () => {
    const { items } = await all('/api/news?featured=1&kategori=liputan')
    expect(items.map((a) => a.id)).toEqual((await expected(sql`is_featured and lower(category) = 'liputan'`)).map((r) => r.id))
    expect(items.length).toBeGreaterThan(0)
  })

  describe('q search', () => {
    test('title words, case- and accent-insensitive, prefixes', async () => {
      for (const q of ['borobudur', 'BOROBUDUR', 'Borobúdur', 'borobu']) {
        const { items } = await all(`/api/news?q=${encodeURIComponent(q)}`)
        expect(items.map((a) => a.slug)).toContain('liputan-ribuan-pelari-ramaikan-maraton-borobudur')
      }
    })

    test('a word only in the body matches', async () => {
      const { items, total } = await all('/api/news?q=gamelanistis')
      expect(items.map((a) => a.slug)).toEqual(['artikel-kata-langka'])
      expect(total).toBe((await expected(sql`content ilike '%gamelanistis%'`)).length)
    })

    test('every public article holding the word is found; draft and scheduled never match', async () => {
      const { items } = await all('/api/news?q=festival')
      const rows = await expected(sql`(title || ' ' || excerpt || ' ' || content) ilike '%festival%'`)
      expect(items.length).toBeGreaterThan(0)
      for (const id of rows.map((r) => r.id)) expect(items.map((a) => a.id)).toContain(id)
      const unpublished = await all('/api/news?q=agenda%20akhir%20tahun%20bali')
      expect(unpublished.items.map((a) => a.slug)).not.toContain('agenda-event-akhir-tahun-di-bali')
      const scheduled = await all('/api/news?q=terjadwal')
      expect(scheduled.items.map((a) => a.slug)).not.toContain('artikel-terjadwal')
    })

    test('q combines with kategori and featured', async () => {
      const { items } = await all('/api/news?q=festival&kategori=review')
      expect(items.length).toBeGreaterThan(0)
      for (const a of items) expect(a.category.toLowerCase()).toBe('review')
      const tips = await all('/api/news?q=festival&kategori=tips&featured=1')
      for (const a of tips.items) expect(a.category).toBe('Tips')
    })

    test('SQL and markup in q are only text', async () => {
      const total = (await expected()).length
      for (const q of [`' or 1=1 --`, `"; drop table news_articles; --`, '<script>alert(1)</script>', '%', '_', '\\', ':*|&!']) {
        const res = await get(ctx.app, `/api/news?q=${encodeURIComponent(q)}`)
        expect(res.status).toBe(200)
        expect(res.body.pagination.total).toBeLessThanOrEqual(total)
      }
      expect((await expected()).length).toBe(total)
    })

    test('q longer than 200 characters: 400 naming q', async () => {
      const res = await get(ctx.app, `/api/news?q=${'a'.repeat(201)}`)
      expect(res.status).toBe(400)
      expect(envelopeMessage(res)).toContain('q')
      expect(res.body.details[0].field).toBe('q')
      expect((await get(ctx.app, `/api/news?q=${'a'.repeat(200)}`)).status).toBe(200)
    })
  })

  test('limit default 9, clamped to 50; pages never repeat or skip', async () => {
    const rows = await expected()
    const clamped = await get(ctx.app, '/api/news?limit=1000')
    expect(clamped.status).toBe(200)
    expect(clamped.body.pagination.limit).toBe(50)
    expect(clamped.body.data).toHaveLength(Math.min(50, rows.length))
    const ids: string[] = []
    for (let page = 1; page <= Math.ceil(rows.length / 4); page++) {
      const res = await get(ctx.app, `/api/news?limit=4&page=${page}`)
      expect(res.body.pagination).toMatchObject({ page, limit: 4, has_prev: page > 1, prev_page: page > 1 ? page - 1 : null })
      ids.push(...res.body.data.map((a: any) => a.id))
    }
    expect(ids).toEqual(rows.map((r) => r.id))
  })

  test('a page past the end: 200, empty, no next page', async () => {
    const total = (await expected()).length
    const res = await get(ctx.app, '/api/news?page=99')
    expect(res.status).toBe(200)
    expect(res.body.data).toEqual([])
    expect(res.body.pagination).toMatchObject({ page: 99, total, has_next: false, next_page: null })
  })

  test('invalid page, limit, featured, kategori: 400 envelope naming the parameter', async () => {
    const cases: [string, string][] = [
      ['page=0', 'page'],
      ['page=-3', 'page'],
      ['page=abc', 'page'],
      ['limit=0', 'limit'],
      ['limit=1.5', 'limit'],
      ['featured=2', 'featured'],
      ['featured=ya', 'featured'],
      [`kategori=${'x'.repeat(101)}`, 'kategori'],
    ]
    for (const [query, field] of cases) {
      const res = await get(ctx.app, `/api/news?${query}`)
      expect(res.status).toBe(400)
      expect(envelopeMessage(res)).toContain(field)
      expect(res.body.details?.[0]?.field).toBe(field)
      expect(res.text).not.toContain('Expected')
    }
  })
})

describe('GET /api/news/:slug', () => {
  test('the article with its HTML content, fields from the database', async () => {
    const [row] = await ctx.database.rows<Record<string, string>>(sql`
      select id, title, slug, excerpt, content, cover_url, category, author_name,
        to_char(published_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as published_at
      from news_articles where status = 'published' and published_at <= now() order by published_at desc limit 1`)
    const res = await get(ctx.app, `/api/news/${row.slug}`)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ success: true, article: row })
    expect(res.body.article.content).toContain('<p>')
    expect(res.body.article.published_at).toMatch(/Z$/)
    // the id works too
    const byId = await get(ctx.app, `/api/news/${row.id}`)
    expect(byId.body.article).toEqual(row)
  })

  test('unknown, draft or scheduled: 404 "Artikel tidak ditemukan"', async () => {
    const hidden = await ctx.database.rows<{ id: string; slug: string }>(
      sql`select id, slug from news_articles where status <> 'published' or published_at > now()`,
    )
    expect(hidden.length).toBeGreaterThanOrEqual(2)
    const paths = [
      'tidak-ada',
      Bun.randomUUIDv7(),
      encodeURIComponent(`x' or '1'='1`),
      encodeURIComponent('<script>alert(1)</script>'),
      ...hidden.flatMap((h) => [h.slug, h.id]),
    ]
    for (const path of paths) {
      const res = await get(ctx.app, `/api/news/${path}`)
      expect(res.status).toBe(404)
      expect(envelopeMessage(res)).toBe('Artikel tidak ditemukan')
    }
  })

  test('a slug over 200 characters: 400 envelope', async () => {
    const res = await get(ctx.app, `/api/news/${'a'.repeat(201)}`)
    expect(res.status).toBe(400)
    envelopeMessage(res)
  })

  test('publishing a draft makes it visible; scheduling it later hides it again', async () => {
    const [draft] = await ctx.database.rows<{ id: string; slug: string }>(
      sql`select id, slug from news_articles where status = 'draft' limit 1`,
    )
    expect((await get(ctx.app, `/api/news/${draft.slug}`)).status).toBe(404)
    await ctx.database.rows(sql`update news_articles set status = 'published', published_at = now() where id = ${draft.id}`)
    expect((await get(ctx.app, `/api/news/${draft.slug}`)).status).toBe(200)
    expect((await get(ctx.app, '/api/news?limit=1')).body.data[0].id).toBe(draft.id)
    await ctx.database.rows(sql`update news_articles set published_at = now() + interval '1 day' where id = ${draft.id}`)
    expect((await get(ctx.app, `/api/news/${draft.slug}`)).status).toBe(404)
  })
})
