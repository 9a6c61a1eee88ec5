// iCalendar (RFC 5545) for one event and for a filtered list: a calendar app can import the
// first and subscribe to the second.
//
// - Times are local to the event's city: DTSTART;TZID=Asia/Makassar:... with a VTIMEZONE for
//   each zone used (Indonesia has no daylight saving: one STANDARD block each). An event without
//   a start time is an all-day event (VALUE=DATE, DTEND exclusive).
// - UID is the event id at a fixed domain, so it is the same on every host and every request;
//   DTSTAMP and LAST-MODIFIED are the event's updated_at, so an unchanged event is byte-identical
//   (stable ETag) and a changed one is seen as changed.
// - TEXT values are escaped (\\ ; , newline) and lines are folded at 75 octets without
//   splitting a UTF-8 character.
import { and, eq, inArray } from 'drizzle-orm'
import { categories, cities, events, type Database } from '@app/db'
import { envelope, pageRequest } from '@app/kit'
import { validateDiscovery } from './discovery'
import type { RawEventListQuery } from './model'
import { findPublishedEvent, listQueries, prepareSearch } from './service'
import { addDays, zoneOf } from './windows'

export const ICS_CONTENT_TYPE = 'text/calendar; charset=utf-8'
const UID_DOMAIN = 'event-catalog.id'
const PRODID = '-//Jelajah Event//Event Catalog API//ID'

export type IcsEvent = Awaited<ReturnType<typeof icsRows>>[number]

/** The rows a calendar needs, for published events with these ids (in the given order). */
export async function icsRows({ db }: Database, ids: string[]) {
  if (!ids.length) return []
  const rows = await db
    .select({
      id: events.id,
      title: events.title,
      slug: events.slug,
      shortDescription: events.shortDescription,
      startDate: events.startDate,
      endDate: events.endDate,
      startTime: events.startTime,
      endTime: events.endTime,
      eventType: events.eventType,
      venueName: events.venueName,
      venueAddress: events.venueAddress,
      latitude: events.latitude,
      longitude: events.longitude,
      cityName: cities.name,
      timeZone: cities.timeZone,
      categoryName: categories.name,
      organizerName: events.organizerName,
      ticketUrl: events.ticketUrl,
      updatedAt: events.updatedAt,
    })
    .from(events)
    .innerJoin(categories, eq(categories.id, events.categoryId))
    .leftJoin(cities, eq(cities.id, events.cityId))
    .where(and(inArray(events.id, ids), eq(events.status, 'published')))
  const order = new Map(ids.map((id, i) => [id, i]))
  return rows.sort((a, b) => order.get(a.id)! - order.get(b.id)!)
}

/** TEXT value escaping (RFC 5545 3.3.11). */
export function escapeText(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r?\n/g, '\\n')
}

const encoder = new TextEncoder()

/** Folds a content line at 75 octets (RFC 5545 3.1), never inside a UTF-8 character. */
export function foldLine(line: string): string {
  if (encoder.encode(line).length <= 75) return line
  const parts: string[] = []
  let current = ''
  let size = 0
  let limit = 75
  for (const char of line) {
    const bytes = encoder.encode(char).length
    if (size + bytes > limit) {
      parts.push(current)
      current = ''
      size = 0
      limit = 74 // continuation lines start with one space
    }
    current += char
    size += bytes
  }
  parts.push(current)
  return parts.join('\r\n ')
}

const compactDate = (iso: string) => iso.replace(/-/g, '')
const compactTime = (time: string) => time.slice(0, 8).replace(/:/g, '').padEnd(6, '0')
const utcStamp = (date: Date) =>
  date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '')

function offsetText(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+'
  const abs = Math.abs(minutes)
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}${String(abs % 60).padStart(2, '0')}`
}

function vtimezone(tzid: string): string[] {
  const zone = zoneOf(tzid)
  const offset = offsetText(zone.offsetMinutes)
  return [
    'BEGIN:VTIMEZONE',
    `TZID:${tzid}`,
    'BEGIN:STANDARD',
    'DTSTART:19700101T000000',
    `TZOFFSETFROM:${offset}`,
    `TZOFFSETTO:${offset}`,
    `TZNAME:${zone.abbreviation}`,
    'END:STANDARD',
    'END:VTIMEZONE',
  ]
}

/** The zone an event's times are in: its city's, WIB for an online event without a city. */
const tzidOf = (e: IcsEvent) => e.timeZone ?? 'Asia/Jakarta'

function vevent(e: IcsEvent, baseUrl: string): string[] {
  const tzid = tzidOf(e)
  const lines = ['BEGIN:VEVENT', `UID:${e.id}@${UID_DOMAIN}`, `DTSTAMP:${utcStamp(e.updatedAt)}`]
  if (e.startTime) {
    lines.push(`DTSTART;TZID=${tzid}:${compactDate(e.startDate)}T${compactTime(e.startTime)}`)
    // without an end time the event lasts until the end of its last day
    if (e.endTime && !(e.endDate === e.startDate && e.endTime <= e.startTime))
      lines.push(`DTEND;TZID=${tzid}:${compactDate(e.endDate)}T${compactTime(e.endTime)}`)
    else lines.push(`DTEND;TZID=${tzid}:${compactDate(addDays(e.endDate, 1))}T000000`)
  } else {
    lines.push(`DTSTART;VALUE=DATE:${compactDate(e.startDate)}`)
    lines.push(`DTEND;VALUE=DATE:${compactDate(addDays(e.endDate, 1))}`)
  }
  const url = `${baseUrl}/api/events/${e.slug}`
  const location = [e.venueName, e.venueAddress || e.cityName].filter(Boolean).join(', ')
  const description = [e.shortDescription, `Penyelenggara: ${e.organizerName}`, e.ticketUrl && `Tiket: ${e.ticketUrl}`, url]
    .filter(Boolean)
    .join('\n')
  lines.push(
    `SUMMARY:${escapeText(e.title)}`,
    `DESCRIPTION:${escapeText(description)}`,
    `LOCATION:${escapeText(location || 'Online')}`,
  )
  if (e.latitude !== null && e.longitude !== null) lines.push(`GEO:${e.latitude};${e.longitude}`)
  lines.push(
    `CATEGORIES:${escapeText(e.categoryName)}`,
    `URL:${url}`,
    `LAST-MODIFIED:${utcStamp(e.updatedAt)}`,
    'STATUS:CONFIRMED',
    'TRANSP:OPAQUE',
    'END:VEVENT',
  )
  return lines
}

/** A complete VCALENDAR with one VTIMEZONE per zone used, CRLF line ends, folded lines. */
export function toCalendar(rows: IcsEvent[], options: { name: string; baseUrl: string }): string {
  const zones = [...new Set(rows.filter((e) => e.startTime).map(tzidOf))].sort()
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    `PRODID:${PRODID}`,
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    `X-WR-CALNAME:${escapeText(options.name)}`,
    'X-WR-TIMEZONE:Asia/Jakarta',
    ...zones.flatMap(vtimezone),
    ...rows.flatMap((e) => vevent(e, options.baseUrl)),
    'END:VCALENDAR',
  ]
  return lines.map(foldLine).join('\r\n') + '\r\n'
}

function calendarResponse(request: Request, body: string, filename: string): Response {
  const etag = `W/"${Bun.hash(body).toString(36)}"`
  const headers = {
    'content-type': ICS_CONTENT_TYPE,
    'content-disposition': `inline; filename="${filename}"`,
    'cache-control': 'public, no-cache',
    etag,
  }
  if (request.headers.get('if-none-match') === etag) return new Response(null, { status: 304, headers })
  return new Response(body, { status: 200, headers })
}

const originOf = (request: Request) => new URL(request.url).origin

/** GET /api/events/{slug}.ics */
export async function eventCalendar(database: Database, slug: string, request: Request): Promise<Response> {
  const event = await findPublishedEvent(database, slug)
  if (!event) return envelope(404, 'Event tidak ditemukan')
  const rows = await icsRows(database, [event.id])
  return calendarResponse(request, toCalendar(rows, { name: event.title, baseUrl: originOf(request) }), `${event.slug}.ics`)
}

/** GET /api/events.ics?<list filters>: the list's events (its filters and sort), up to 500. */
export async function eventsCalendar(
  database: Database,
  query: RawEventListQuery,
  request: Request,
  nowMs: number,
): Promise<Response> {
  validateDiscovery(query)
  const page = pageRequest(query, 100, 500)
  const ids = (await listQueries(database, await prepareSearch(database, query), page, { now: nowMs }).ids).map((r) => r.id)
  const rows = await icsRows(database, ids)
  return calendarResponse(request, toCalendar(rows, { name: 'Jelajah Event', baseUrl: originOf(request) }), 'events.ics')
}
