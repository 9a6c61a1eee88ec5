import { sql } from 'drizzle-orm'
import type { Database } from './client'
import { categories, cities, eventTags, events, newsArticles, settings, tags, type EventStatus } from './schema'
import { slugify } from './slug'
import { demoAuthors, demoCategories, demoCities, demoEventTemplates, demoNews, demoSettings, demoTags } from './seed-data'

const DAY_MS = 86_400_000

function isoDate(ms: number) {
  return new Date(ms).toISOString().slice(0, 10)
}

// The published share of the demo: the first 60 templates; the rest cover the other states.
const PUBLISHED_COUNT = 60
const OTHER_STATES: EventStatus[] = ['pending', 'pending', 'draft', 'rejected', 'pending']

/**
 * Inserts the demo catalogue. Idempotent: rows are keyed by slug and existing ones are left
 * alone, so a second run adds nothing and never overwrites what an admin changed.
 * Event dates are relative to `now` so the demo always has past and upcoming events.
 */
export async function seedDemo(database: Database, now = Date.now()): Promise<void> {
  const { db } = database
  await db.transaction(async (tx) => {
    await tx
      .insert(categories)
      .values(
        demoCategories.map((c, i) => ({
          id: Bun.randomUUIDv7(),
          ...c,
          isActive: c.isActive ?? true,
          sortOrder: (i + 1) * 10,
          imageUrl: `/media/demo/categories/${c.slug}.jpg`,
        })),
      )
      .onConflictDoNothing({ target: categories.slug })
    await tx
      .insert(cities)
      .values(demoCities.map((c) => ({ id: Bun.randomUUIDv7(), ...c, imageUrl: `/media/demo/cities/${c.slug}.jpg` })))
      .onConflictDoNothing({ target: cities.slug })
    await tx
      .insert(tags)
      .values(demoTags.map((name) => ({ id: Bun.randomUUIDv7(), name, slug: slugify(name) })))
      .onConflictDoNothing()

    const categoryIds = new Map(
      (await tx.select({ id: categories.id, slug: categories.slug }).from(categories)).map((r) => [r.slug, r.id]),
    )
    const cityRows = await tx.select({ id: cities.id, slug: cities.slug }).from(cities)
    const cityIds = new Map(cityRows.map((r) => [r.slug, r.id]))
    const tagIds = new Map((await tx.select({ id: tags.id, name: tags.name }).from(tags)).map((r) => [r.name, r.id]))

    const today = Math.floor(now / DAY_MS) * DAY_MS
    const eventRows = demoEventTemplates.map((tpl, i) => {
      const city = demoCities[(i * 7) % demoCities.length]
      // spread over roughly 6 weeks back and 4 months ahead
      const start = today + (((i * 11) % 160) - 45) * DAY_MS
      const days = i % 5 === 0 ? 2 : i % 7 === 0 ? 3 : 0
      const type = tpl.type ?? 'offline'
      const [min, max] = tpl.price ?? [0, 0]
      const status: EventStatus = i < PUBLISHED_COUNT ? 'published' : OTHER_STATES[(i - PUBLISHED_COUNT) % OTHER_STATES.length]
      // created_at strictly increasing so "newest first" is stable and meaningful
      const createdAt = new Date(now - (demoEventTemplates.length - i) * 3_600_000)
      const slug = slugify(tpl.title)
      return {
        id: Bun.randomUUIDv7(),
        title: tpl.title,
        slug,
        shortDescription: tpl.short,
        description: `<p>${tpl.short}</p><p>${tpl.title} diselenggarakan oleh <strong>${tpl.organizer}</strong> di ${tpl.venue}, ${city.name}. Ajak teman dan keluarga, dan pastikan datang lebih awal.</p><ul><li>Pintu dibuka 1 jam sebelum acara</li><li>Bawa kartu identitas</li></ul>`,
        posterUrl: `/media/demo/events/${slug}.jpg`,
        gallery: [
          { url: `/media/demo/events/${slug}-1.jpg`, caption: `Suasana ${tpl.title}` },
          { url: `/media/demo/events/${slug}-2.jpg`, caption: null },
        ],
        startDate: isoDate(start),
        endDate: isoDate(start + days * DAY_MS),
        startTime: `${String(8 + (i % 12)).padStart(2, '0')}:${i % 2 ? '30' : '00'}`,
        endTime: `${String(Math.min(23, 10 + (i % 12))).padStart(2, '0')}:00`,
        eventType: type,
        venueName: type === 'online' ? tpl.venue : `${tpl.venue} ${city.name}`,
        venueAddress: type === 'online' ? '' : `Jl. Merdeka No. ${i + 1}, ${city.name}, ${city.province}`,
        latitude: type === 'online' ? null : Number((-6.2 + ((i * 37) % 100) / 50).toFixed(5)),
        longitude: type === 'online' ? null : Number((106.8 + ((i * 53) % 100) / 10).toFixed(5)),
        cityId: type === 'online' ? null : cityIds.get(city.slug)!,
        categoryId: categoryIds.get(tpl.category)!,
        organizerName: tpl.organizer,
        contactName: 'Panitia ' + tpl.organizer,
        contactPhone: `+62812${String(1000000 + i * 7919).slice(0, 7)}`,
        contactEmail: `info@${slugify(tpl.organizer).replace(/-/g, '')}.id`,
        ticketUrl: min > 0 ? `https://tiket.example.id/${slug}` : '',
        isFree: min === 0,
        ticketPriceMin: String(min),
        ticketPriceMax: String(max),
        status,
        createdAt,
        updatedAt: createdAt,
        publishedAt: status === 'published' ? createdAt : null,
      }
    })
    const inserted = await tx
      .insert(events)
      .values(eventRows)
      .onConflictDoNothing({ target: events.slug })
      .returning({ id: events.id, slug: events.slug })
    const insertedIds = new Map(inserted.map((r) => [r.slug, r.id]))
    const links = demoEventTemplates.flatMap((tpl, i) => {
      const eventId = insertedIds.get(eventRows[i].slug)
      return eventId ? tpl.tags.map((name) => ({ eventId, tagId: tagIds.get(name)! })) : []
    })
    if (links.length) await tx.insert(eventTags).values(links).onConflictDoNothing()

    await tx
      .insert(newsArticles)
      .values(
        demoNews.map((n, i) => {
          const publishedAt = new Date(now - (i * 2 + 1) * DAY_MS)
          const excerpt = `${n.title}: rangkuman singkat dari redaksi untuk pembaca yang ingin tahu lebih dulu.`
          return {
            id: Bun.randomUUIDv7(),
            slug: n.slug,
            title: n.title,
            excerpt,
            content: `<p>${excerpt}</p><h2>Yang perlu diketahui</h2><p>Redaksi merangkum hal penting seputar ${n.title.toLowerCase()}. Simak juga agenda event terdekat di kota Anda.</p><blockquote>Datang lebih awal dan patuhi aturan panitia.</blockquote>`,
            coverUrl: `/media/demo/news/${n.slug}.jpg`,
            category: n.category,
            authorName: demoAuthors[i % demoAuthors.length],
            isFeatured: n.featured,
            status: (n as { draft?: boolean }).draft ? ('draft' as const) : ('published' as const),
            publishedAt,
            createdAt: publishedAt,
            updatedAt: publishedAt,
          }
        }),
      )
      .onConflictDoNothing({ target: newsArticles.slug })

    await tx
      .insert(settings)
      .values(Object.entries(demoSettings).map(([key, value]) => ({ key, value })))
      .onConflictDoNothing()
  })
}

/** True when the catalogue has no categories yet (a fresh database). */
export async function isEmptyCatalogue(database: Database): Promise<boolean> {
  const rows = await database.db.select({ n: sql<number>`count(*)::int` }).from(categories)
  return rows[0].n === 0
}
