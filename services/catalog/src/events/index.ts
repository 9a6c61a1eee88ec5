import { Elysia } from 'elysia'
import { findSlugRedirect } from '@app/db'
import { cacheKey, errorResponse, movedPermanently, pagination, pageRequest, slugMovedResponse, type MemoToken } from '@app/kit'
import type { CatalogContext } from '../deps'
import { validateDiscovery } from './discovery'
import { eventFacets } from './facets'
import { jsonArray } from './cards'
import { eventCalendar, eventsCalendar } from './ics'
import { eventDetailResponse, eventListQuery, eventListResponse, slugParams } from './model'
import { relatedEvents, type RelatedTo } from './related'
import { findPublishedEvent, listDeps, listEvents, prepareSearch } from './service'
import { nextDateChange } from './windows'

/** What a cached detail keeps to rebuild its `related` without reading the event again. */
interface DetailMeta {
  /** Length of the text before `,"related":` */
  headLength: number
  relatedTo: RelatedTo
}

export const eventRoutes = ({ database, cache, now: clock }: CatalogContext) => {
  const now = clock ?? Date.now
  return new Elysia({ name: 'catalog.events' })
    .get(
      '/api/events',
      ({ query, request }) => {
        validateDiscovery(query)
        const at = now()
        // an answer that depends on "today" is keyed by, and expires at, the next date change
        const datedUntil = query.waktu || query.facets === '1' ? nextDateChange(at) : undefined
        return cache.respond(request, cacheKey('events', { ...query, _dated: datedUntil }), async () => {
          const page = pageRequest(query, 12, 100)
          const searchReady = await prepareSearch(database, query)
          const [{ items, total, exact }, facets] = await Promise.all([
            listEvents(database, searchReady, page, { now: at, remember: cache.remember, expiresAt: datedUntil }),
            query.facets === '1' ? eventFacets(database, searchReady, at) : undefined,
          ])
          const pages = pagination(page, total, true)
          const json =
            `{"success":true,"data":${jsonArray(items)},` +
            `"pagination":${JSON.stringify(exact ? pages : { ...pages, total_exact: false })}` +
            `${facets ? `,"facets":${JSON.stringify(facets)}` : ''}}`
          return {
            status: 200,
            json,
            expiresAt: datedUntil,
            deps: listDeps(query),
          }
        })
      },
      {
        query: eventListQuery,
        response: { 200: eventListResponse },
        detail: {
          tags: ['Event'],
          summary: 'Daftar event terbit',
          description:
            'Hanya event berstatus published. limit default 12, maksimum 100 (nilai di atasnya dipotong ke 100). ' +
            'Tambahan: waktu, mulai/sampai (jendela waktu menurut zona kota event), lat/lng/radius_km dan sort=distance ' +
            '(event terdekat, item membawa distance_km), facets=1 (jumlah per nilai filter).',
        },
      },
    )
    .get('/api/events.ics', ({ query, request }) => eventsCalendar(database, query, request, now()), {
      query: eventListQuery,
      detail: {
        tags: ['Event'],
        summary: 'Kalender iCalendar dari daftar event (langganan)',
        description:
          'Filter dan sort sama dengan GET /api/events; limit default 100, maksimum 500. text/calendar (RFC 5545), ' +
          'dengan VTIMEZONE untuk zona kota tiap event; aplikasi kalender dapat berlangganan URL ini.',
        responses: { 200: { description: 'text/calendar', content: { 'text/calendar': { schema: { type: 'string' } } } } },
      },
    })
    .get(
      '/api/events/:slug',
      async ({ params, request }) => {
        // /api/events/{slug}.ics: slugs never contain a dot
        if (params.slug.endsWith('.ics')) return eventCalendar(database, params.slug.slice(0, -4), request)
        const at = now()
        const datedUntil = nextDateChange(at)
        const self = `event:${params.slug}`
        const response = await cache.respond(request, cacheKey('event', { ...params, _dated: datedUntil }), async (previous) => {
          // A write to the event drops this answer (`self`). `related` is built from the upcoming
          // events of its category, city and tags, each part remembered on its own (related.ts):
          // an approval elsewhere in the category drops that part, and this answer is rebuilt
          // from its previous text and the parts, and kept when it comes out the same.
          const kept = previous?.meta as DetailMeta | undefined
          let head: string
          let relatedTo: RelatedTo
          if (kept) {
            head = previous!.text().slice(0, kept.headLength)
            relatedTo = kept.relatedTo
          } else {
            const found = await findPublishedEvent(database, params.slug)
            if (!found) return { status: 404, body: { success: false, error: 'Event tidak ditemukan' }, deps: [self] }
            // the detail's JSON as the database wrote it, `related` added as its last field
            head = `{"success":true,"event":${found.json.slice(0, -1)}`
            relatedTo = found.relatedTo
          }
          const memos: MemoToken[] = []
          const related = await relatedEvents(database, relatedTo, at, (key, compute) => cache.remember(key, compute, memos))
          const json = `${head},"related":${jsonArray(related)}}}`
          // `related` lists upcoming events: it changes when a date does
          const meta: DetailMeta = { headLength: head.length, relatedTo }
          return { status: 200, json, expiresAt: datedUntil, deps: [self], memos, meta }
        })
        // an old slug of a renamed event: 301 to the current one
        if (response.status !== 404) return response
        const slug = await findSlugRedirect(database, 'event', params.slug)
        return slug ? movedPermanently(request, `/api/events/${slug}`, slug) : response
      },
      {
        params: slugParams,
        response: { 200: eventDetailResponse, 301: slugMovedResponse, 404: errorResponse },
        detail: {
          tags: ['Event'],
          summary: 'Detail event (slug atau id); slug lama dijawab 301 ke slug baru',
          description:
            'Event yang belum terbit dijawab 404, sama seperti slug yang tidak ada. Tambahan: related (sampai 4 event ' +
            'mendatang dengan kategori, kota, atau tag yang sama). {slug}.ics menjawab event itu sebagai iCalendar (text/calendar).',
        },
      },
    )
}
