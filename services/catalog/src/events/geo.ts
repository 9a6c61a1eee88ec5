// "Near me": lat, lng, radius_km and sort=distance.
//
// No PostGIS (PGlite has none): a bounding box on the btree index (latitude, longitude)
// (migration 0015) selects candidates, the haversine formula in plain SQL then keeps those truly
// within the radius and gives the distance. Same SQL on PGlite and PostgreSQL.
import { sql, type SQL } from 'drizzle-orm'
import { HttpError } from '@app/kit'

export const DEFAULT_RADIUS_KM = 25
export const MAX_RADIUS_KM = 500
const EARTH_RADIUS_KM = 6371.0088
const KM_PER_DEGREE_LAT = 111.32

export interface GeoFilter {
  lat?: number
  lng?: number
  radius_km?: number
  sort?: string
}

export interface Point {
  lat: number
  lng: number
  radiusKm: number
}

/** The point and radius of a query, or null when it asks for none; 400 on half a point. */
export function nearPoint(query: GeoFilter): Point | null {
  const hasLat = query.lat !== undefined
  const hasLng = query.lng !== undefined
  if (hasLat !== hasLng)
    throw new HttpError(400, 'lat dan lng harus diisi bersama', [
      { field: hasLat ? 'lng' : 'lat', message: 'lat dan lng harus diisi bersama' },
    ])
  if (!hasLat) {
    if (query.sort === 'distance')
      throw new HttpError(400, 'sort=distance membutuhkan lat dan lng', [
        { field: 'sort', message: 'sort=distance membutuhkan lat dan lng' },
      ])
    if (query.radius_km !== undefined)
      throw new HttpError(400, 'radius_km membutuhkan lat dan lng', [
        { field: 'radius_km', message: 'radius_km membutuhkan lat dan lng' },
      ])
    return null
  }
  return { lat: query.lat!, lng: query.lng!, radiusKm: query.radius_km ?? DEFAULT_RADIUS_KM }
}

/** Great-circle distance in km (haversine), as SQL over the event's coordinates. */
export function distanceSql(p: Point): SQL {
  // least(): rounding must not push asin's argument above 1 for far-apart points
  return sql`(2 * ${EARTH_RADIUS_KM}::float8 * asin(least(1.0::float8, sqrt(
    power(sin(radians("events"."latitude" - ${p.lat}::float8) / 2), 2) +
    cos(radians(${p.lat}::float8)) * cos(radians("events"."latitude")) *
    power(sin(radians("events"."longitude" - ${p.lng}::float8) / 2), 2)))))`
}

/** Bounding box (index) and exact radius (haversine). */
export function nearCondition(p: Point): SQL {
  const dLat = p.radiusKm / KM_PER_DEGREE_LAT
  // widest at the box's edge nearest a pole; capped so the box never wraps
  const maxAbsLat = Math.min(89.9, Math.abs(p.lat) + dLat)
  const dLng = Math.min(180, p.radiusKm / (KM_PER_DEGREE_LAT * Math.cos((maxAbsLat * Math.PI) / 180)))
  return sql`("events"."latitude" between ${p.lat - dLat}::float8 and ${p.lat + dLat}::float8
    and "events"."longitude" between ${p.lng - dLng}::float8 and ${p.lng + dLng}::float8
    and ${distanceSql(p)} <= ${p.radiusKm}::float8)`
}
