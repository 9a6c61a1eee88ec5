import { sql } from 'drizzle-orm'
import type { Database } from './client'
import { categories, cities, eventTags, events, newsArticles, settings, tags, type EventStatus } from './schema'
import { slugify } from './slug'
import { demoAuthors, demoCategories, demoCities, demoEventTemplates, demoNews, demoSettings, demoTags } from './seed-data'

const DAY_MS = 86_400_000

function isoDate(ms: number) {
  return new Date(ms).toISOString().slice(0, 10)
}

// Local times by category: concerts in the evening, runs at dawn, workshops in the morning.
const TIMES: Record<string, [start: string, end: string]> = {
  musik: ['19:00', '23:00'],
  workshop: ['09:00', '12:00'],
  olahraga: ['05:30', '09:00'],
  pameran: ['10:00', '21:00'],
  kuliner: ['16:00', '22:00'],
  teknologi: ['09:00', '17:00'],
  'seni-budaya': ['19:30', '22:30'],
  pendidikan: ['08:00', '15:00'],
  bisnis: ['09:00', '16:00'],
  komunitas: ['07:00', '11:00'],
  film: ['18:30', '22:00'],
  'anak-keluarga': ['09:00', '15:00'],
  religi: ['19:30', '21:30'],
}
// categories people go to on weekends (the others mostly run on weekdays)
const WEEKEND = new Set(['musik', 'olahraga', 'pameran', 'kuliner', 'seni-budaya', 'komunitas', 'film', 'anak-keluarga'])
const STREETS = ['Merdeka', 'Jenderal Sudirman', 'Ahmad Yani', 'Diponegoro', 'Gajah Mada', 'Pahlawan', 'Veteran', 'Pemuda']

/**
 * The first day of template `i` (days after Monday of the current week, WIB): about a sixth
 * in the last month, the rest over the next year, denser in the coming weeks; weekend
 * categories on Saturday (runs on Sunday, short festivals from Friday), the others on weekdays
 * or Saturday; long exhibitions are on now.
 */
function dayOffset(i: number, category: string, days: number, todayOffset: number): number {
  if (days >= 10) return todayOffset - 1 - (i % 5)
  const k = (i * 29) % demoEventTemplates.length
  const week = Math.round(-4 + 56 * (k / (demoEventTemplates.length - 1)) ** 1.6)
  const weekday = !WEEKEND.has(category) ? [1, 2, 3, 5][i % 4] : days >= 5 ? 2 : days > 1 ? 4 : category === 'olahraga' ? 6 : 5
  return week * 7 + weekday
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
      .values(
        demoCities.map(({ latitude: _lat, longitude: _lng, ...c }) => ({
          id: Bun.randomUUIDv7(),
          ...c,
          imageUrl: `/media/demo/cities/${c.slug}.jpg`,
        })),
      )
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

    // dates are local: today in WIB, weeks from Monday
    const today = Math.floor((now + 7 * 3_600_000) / DAY_MS) * DAY_MS
    const monday = today - ((new Date(today).getUTCDay() + 6) % 7) * DAY_MS
    const cityBySlug = new Map(demoCities.map((c) => [c.slug, c]))
    const eventRows = demoEventTemplates.map((tpl, i) => {
      if (tpl.city && !cityBySlug.has(tpl.city)) throw new Error(`seed: unknown city ${tpl.city} for ${tpl.title}`)
      const city = tpl.city ? cityBySlug.get(tpl.city)! : demoCities[(i * 7) % demoCities.length]
      const length = tpl.days ?? 1
      const start = monday + dayOffset(i, tpl.category, length, (today - monday) / DAY_MS) * DAY_MS
      const days = length - 1
      const [startTime, endTime] = i % 13 === 12 ? [null, null] : TIMES[tpl.category]
      // most venues have coordinates: their own, or a spot within ~3 km of the city centre
      const coordinates: [number, number] | null = tpl.at
        ? [tpl.at[0], tpl.at[1]]
        : i % 9 === 4
          ? null
          : [
              Number((city.latitude + (((i * 37) % 61) - 30) / 1000).toFixed(5)),
              Number((city.longitude + (((i * 53) % 61) - 30) / 1000).toFixed(5)),
            ]
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
        startTime,
        endTime,
        eventType: type,
        venueName: type === 'online' || tpl.at ? tpl.venue : `${tpl.venue} ${city.name}`,
        venueAddress:
          type === 'online'
            ? ''
            : `${tpl.at ? tpl.at[2] : `Jl. ${STREETS[i % STREETS.length]} No. ${((i * 7) % 120) + 1}`}, ${city.name}, ${city.province}`,
        latitude: type === 'online' ? null : (coordinates?.[0] ?? null),
        longitude: type === 'online' ? null : (coordinates?.[1] ?? null),
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
