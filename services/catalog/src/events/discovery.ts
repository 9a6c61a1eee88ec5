// The hook points of the discovery features (issue 14) in the event list queries: conditions,
// extra columns and the `distance` order. service.ts calls these; everything else lives here.
import { asc, sql, type SQL } from 'drizzle-orm'
import { events, searchWords } from '@app/db'
import { HttpError } from '@app/kit'
import { distanceSql, nearCondition, nearPoint } from './geo'
import type { EventListQuery, RawEventListQuery } from './model'
import { timeConditions, validateTimeFilter, WAKTU } from './windows'

/** Cross-field rules the schema cannot express; throws a 400 envelope before any query. */
export function validateDiscovery(query: RawEventListQuery): asserts query is EventListQuery {
  choice('waktu', query.waktu, WAKTU)
  choice('facets', query.facets, ['0', '1'])
  validateTimeFilter(query as EventListQuery)
  nearPoint(query)
  if (query.sort === 'relevance' && !searchWords(query.q ?? '').length) {
    const message = 'sort=relevance membutuhkan q'
    throw new HttpError(400, message, [{ field: 'sort', message }])
  }
}

function choice(field: string, value: string | undefined, values: readonly string[]) {
  if (value === undefined || values.includes(value)) return
  const message = field === 'facets' ? 'facets harus 0 atau 1' : `${field} harus salah satu dari ${values.join(', ')}`
  throw new HttpError(400, message, [{ field, message }])
}

/** Time window and near-me conditions of a list query. */
export function discoveryConditions(query: EventListQuery, nowMs: number): SQL[] {
  const out = timeConditions(query, nowMs)
  const point = nearPoint(query)
  if (point) out.push(nearCondition(point))
  return out
}

/** The distance (km) to show as `distance_km` when the query has a point. */
export function discoveryDistance(query: EventListQuery): SQL | undefined {
  const point = nearPoint(query)
  return point ? distanceSql(point) : undefined
}

/** The order of `sort=distance` (nearest first, id as tie-breaker); undefined for the others. */
export function discoveryOrder(query: EventListQuery): SQL[] | undefined {
  if (query.sort !== 'distance') return undefined
  const point = nearPoint(query)!
  return [asc(distanceSql(point)), asc(events.id)]
}
