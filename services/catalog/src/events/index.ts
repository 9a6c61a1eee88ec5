import { Elysia } from 'elysia'
import { findSlugRedirect, searchKey } from '@app/db'
import { cacheKey, errorResponse, movedPermanently, pagination, pageRequest, slugMovedResponse } from '@app/kit'
import type { CatalogContext } from '../deps'
import { validateDiscovery } from './discovery'
import { eventFacets } from './facets'
import { eventCalendar, eventsCalendar } from './ics'
import { eventDetailResponse, eventListQuery, eventListResponse, slugParams } from './model'
import { relatedDeps, relatedEvents } from './related'
import { findPublishedEvent, listDeps, listEvents, prepareSearch } from './service'
import { nextDateChange } from './windows'

export const eventRoutes = ({ database, cache, listIndex, now: clock }: CatalogContext) => {
  const now = clock ?? Date.now
  // the list index at the version the cache answers at: list pages and related events from memory
  const indexAtCacheVersion = listIndex && (() => listIndex.at(cache.version))
  return new Elysia({ name: 'catalog.events' })
    .get(
      '/api/events',
      ({ query, request }) => {
        validateDiscovery(query)
        const at = now()
        // an answer that depends on "today" is keyed by, and expires at, the next date change
        const datedUntil = query.waktu || query.facets === '1' ? nextDateChange(at) : undefined
        const page = pageRequest(query, 12, 100)
        // the defaults written out (page=1, limit=12, or a limit above 100: 100) are the same answer
        // as left out, so one cache entry
        const key = cacheKey('events', {
          ...query,
          // the same words in another case, order or spacing are the same answer (not by relevance)
          q: query.q !== undefined && query.sort !== 'relevance' ? searchKey(query.q) : query.q,
          page: page.page === 1 ? undefined : page.page,
          limit: page.limit === 12 ? undefined : page.limit,
          sort: query.sort === 'created_at_desc' ? undefined : query.sort,
          _dated: datedUntil,
        })
        return cache.respond(request, key, async () => {
          const searchReady = await prepareSearch(database, query, cache.remember)
          const [{ itemsJson, total, exact }, facets] = await Promise.all([
            listEvents(database, searchReady, page, {
              now: at,
              remember: cache.remember,
              expiresAt: datedUntil,
              // asked only by a list the index holds (a search whose match it can read, too)
              index: indexAtCacheVersion,
            }),
            query.facets === '1' ? eventFacets(database, searchReady, at) : undefined,
          ])
          const pages = pagination(page, total, true)
          const json =
            `{"success":true,"data":${itemsJson},` +
            `"pagination":${JSON.stringify(exact ? pages : { ...pages, total_exact: false })}` +
            `${facets ? `,"facets":${JSON.stringify(facets)}` : ''}}`
          return {
            status: 200,
            json,
            expiresAt: datedUntil,
            deps: listDeps(searchReady),
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
        const response = await cache.respond(request, cacheKey('event', { ...params, _dated: datedUntil }), async () => {
          // the list index knows the event's related events before it is read: one statement
          const guess = (await indexAtCacheVersion?.())?.detail(params.slug, at)
          const found = await findPublishedEvent(database, params.slug, guess)
          const self = `event:${params.slug}`
          if (!found) return { status: 404, body: { success: false, error: 'Event tidak ditemukan' }, deps: [self] }
          const related =
            found.relatedJson ?? (await relatedEvents(database, found.relatedTo, at, cache.remember, indexAtCacheVersion))
          // `related` lists upcoming events: it changes when a date does
          // and when a write changes the first places of a category, city or tag it is drawn from
          const deps = [self, ...relatedDeps(found.relatedTo)]
          // the detail's JSON as the database wrote it, `related` added as its last field
          const json = `{"success":true,"event":${found.json.slice(0, -1)},"related":${related}}}`
          return { status: 200, json, expiresAt: datedUntil, deps }
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
