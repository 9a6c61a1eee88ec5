// An event's editable fields as organisers submit them and editors change them: the JSON
// schema, the rules (every failure at once, Indonesian messages naming the field) and the
// description sanitiser. Shared by the catalog's submission and the admin's event edit, so both
// accept and store exactly the same thing.
import { t } from 'elysia'
import type sanitizeHtml from 'sanitize-html'
import { eventType, type EventType } from '@app/db'
import type { FieldError } from './errors'

const EVENT_TYPES = eventType.enumValues

// The schema only checks JSON types (each with its own Indonesian message); presence, lengths,
// formats and cross-field rules live in service.ts so that every rule failure of a body is
// reported at once. `null` counts as "not given" for every field, like an absent field, so a
// form that sends `city_id: null` or `end_date: null` is not refused for that.

const textField = (error: string, description: string, example?: string) =>
  t.Optional(t.Union([t.String(), t.Null()], { error, description, ...(example ? { examples: [example] } : {}) }))

const amountField = (error: string, description: string, example: number) =>
  t.Optional(t.Union([t.Number(), t.String(), t.Null()], { error, description, examples: [example] }))

export const eventInputBody = t.Object(
  {
    title: textField('Judul harus berupa teks', 'Wajib, 3 sampai 200 karakter', 'Festival Musik Pantai'),
    category_id: textField('Kategori (category_id) harus berupa teks', 'Wajib: id kategori aktif dari GET /api/categories'),
    city_id: textField('Kota (city_id) harus berupa teks', 'Opsional: id kota dari GET /api/cities'),
    start_date: textField('Tanggal mulai harus berupa teks dengan format YYYY-MM-DD', 'Wajib, YYYY-MM-DD', '2026-12-31'),
    end_date: textField(
      'Tanggal selesai harus berupa teks dengan format YYYY-MM-DD',
      'Opsional, YYYY-MM-DD, tidak sebelum start_date; bawaan sama dengan start_date',
      '2026-12-31',
    ),
    start_time: textField('Jam mulai harus berupa teks dengan format HH:mm', 'Opsional, HH:mm waktu setempat', '19:30'),
    end_time: textField('Jam selesai harus berupa teks dengan format HH:mm', 'Opsional, HH:mm waktu setempat', '22:00'),
    event_type: textField('Jenis event harus salah satu dari offline, online, hybrid', 'offline (bawaan), online, atau hybrid'),
    venue_name: textField('Nama tempat harus berupa teks', 'Opsional, maksimal 200 karakter'),
    venue_address: textField('Alamat tempat harus berupa teks', 'Opsional, maksimal 500 karakter'),
    organizer_name: textField('Nama penyelenggara harus berupa teks', 'Wajib, maksimal 200 karakter'),
    contact_name: textField('Nama kontak harus berupa teks', 'Opsional, maksimal 100 karakter'),
    contact_phone: textField('Nomor telepon kontak harus berupa teks', 'Wajib bila contact_email kosong', '+62 812 3456 7890'),
    contact_email: textField('Email kontak harus berupa teks', 'Wajib bila contact_phone kosong', 'panitia@example.id'),
    ticket_price_min: amountField(
      'Harga tiket minimum harus berupa angka',
      'Rupiah: angka >= 0 (atau teks berisi digit saja)',
      50000,
    ),
    ticket_price_max: amountField(
      'Harga tiket maksimum harus berupa angka',
      'Rupiah: angka >= ticket_price_min; bawaan sama dengan ticket_price_min',
      150000,
    ),
    is_free: t.Optional(
      t.Union([t.Boolean(), t.Number(), t.String(), t.Null()], {
        error: 'Status gratis (is_free) harus bernilai true, false, 0, atau 1',
        description: 'true/false atau 1/0; gratis berarti harga 0',
      }),
    ),
    ticket_url: textField('Link tiket harus berupa teks', 'Opsional, URL http(s)'),
    poster_url: textField('URL poster harus berupa teks', 'Opsional, URL http(s) dari POST /api/upload'),
    tags: textField(
      'Tag harus berupa teks yang dipisahkan koma',
      'Opsional: nama tag dipisahkan koma, maksimal 10 tag, masing-masing maksimal 40 karakter',
      'Musik, Pantai, Malam Minggu',
    ),
    description: textField(
      'Deskripsi harus berupa teks',
      'Opsional, HTML (disanitasi sebelum disimpan), maksimal 20000 karakter',
    ),
    short_description: textField('Deskripsi singkat harus berupa teks', 'Opsional, teks biasa, maksimal 300 karakter'),
    latitude: amountField('Latitude harus berupa angka', 'Opsional, -90 sampai 90; diisi bersama longitude', -6.2),
    longitude: amountField('Longitude harus berupa angka', 'Opsional, -180 sampai 180; diisi bersama latitude', 106.8),
  },
  {
    error: 'Data pengajuan harus berupa objek JSON',
    description: 'Field lain (status, id, slug, hitungan) diabaikan.',
  },
)

export type EventInputBody = typeof eventInputBody.static

/** Limits where the contract is silent (DESIGN.md fixes the title, price, tag and URL rules). */
export const LIMITS = {
  titleMin: 3,
  titleMax: 200,
  organizerMax: 200,
  venueNameMax: 200,
  venueAddressMax: 500,
  contactNameMax: 100,
  emailMax: 254,
  urlMax: 2000,
  idMax: 100,
  shortDescriptionMax: 300,
  descriptionMax: 20_000,
  tagsMax: 10,
  tagLengthMax: 40,
  priceMax: 1_000_000_000,
  yearMin: 1970,
  yearMax: 2100,
} as const

/** The order in which field errors are reported: the contract's order of the fields. */
const FIELD_ORDER = [
  'title',
  'category_id',
  'city_id',
  'start_date',
  'end_date',
  'start_time',
  'end_time',
  'event_type',
  'venue_name',
  'venue_address',
  'organizer_name',
  'contact_name',
  'contact_phone',
  'contact_email',
  'ticket_price_min',
  'ticket_price_max',
  'is_free',
  'ticket_url',
  'poster_url',
  'tags',
  'description',
  'short_description',
  'latitude',
  'longitude',
]

/** A submission after every rule passed: what is stored. */
export interface Submission {
  title: string
  categoryId: string
  cityId: string | null
  startDate: string
  endDate: string
  startTime: string | null
  endTime: string | null
  eventType: EventType
  venueName: string
  venueAddress: string
  organizerName: string
  contactName: string
  contactPhone: string
  contactEmail: string
  ticketPriceMin: number
  ticketPriceMax: number
  isFree: boolean
  ticketUrl: string
  posterUrl: string
  tags: string[]
  description: string
  shortDescription: string
  latitude: number | null
  longitude: number | null
}

// HTML kept in a description: text formatting, lists, headings, quotes and links. Everything
// else is dropped (script/style/textarea with their content); no attribute survives except a
// link's href (http, https, mailto, tel only) and title.
const descriptionOptions = (sanitize: typeof sanitizeHtml): sanitizeHtml.IOptions => ({
  allowedTags: ['p', 'br', 'strong', 'b', 'em', 'i', 'u', 's', 'ul', 'ol', 'li', 'h2', 'h3', 'h4', 'blockquote', 'a', 'hr'],
  allowedAttributes: { a: ['href', 'title', 'target', 'rel'] },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesAppliedToAttributes: ['href'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  transformTags: { a: sanitize.simpleTransform('a', { target: '_blank', rel: 'nofollow noopener noreferrer' }) },
})

// loaded on the first description written (~6 MB of parser code a reading process never needs)
let sanitizer: { sanitize: typeof sanitizeHtml; options: sanitizeHtml.IOptions } | undefined
function loadSanitizer() {
  if (!sanitizer) {
    const sanitize = require('sanitize-html') as typeof sanitizeHtml
    sanitizer = { sanitize, options: descriptionOptions(sanitize) }
  }
  return sanitizer
}

/** Sanitised description HTML: scripts, event handlers, styles and javascript: URLs removed. */
export function sanitizeDescription(html: string): string {
  const { sanitize, options } = loadSanitizer()
  return sanitize(html, options).trim()
}

const length = (s: string) => [...s].length

/** Trimmed text; NUL (which PostgreSQL text cannot hold) removed, line breaks only where allowed. */
function clean(value: string | null | undefined, multiline = false): string {
  if (value === null || value === undefined) return ''
  const s = multiline ? value.replace(/\u0000/g, '') : value.replace(/[\u0000-\u001f\u007f]+/g, ' ')
  return s.normalize('NFC').trim()
}

function isRealDate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value)
  if (!m) return false
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])]
  if (y < LIMITS.yearMin || y > LIMITS.yearMax) return false
  const date = new Date(Date.UTC(y, mo - 1, d))
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d
}

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/
// the WHATWG (HTML form) e-mail syntax
const EMAIL =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/
const PHONE = /^\+?[0-9 ().-]+$/

/** An absolute http(s) URL, normalised; null for anything else (javascript:, data:, relative...). */
export function httpUrl(value: string): string | null {
  if (!/^https?:\/\//i.test(value) || /\s/.test(value)) return null
  try {
    const url = new URL(value)
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname) return null
    return url.href
  } catch {
    return null
  }
}

type Parsed<T> = { value: T } | { error: string } | undefined

/** A JSON number, or a string of digits ("50000"); "50.000" is refused rather than guessed. */
function amount(raw: number | string | null | undefined, label: string, allowNegative = false): Parsed<number> {
  if (raw === null || raw === undefined) return undefined
  let n: number
  if (typeof raw === 'string') {
    const s = raw.trim()
    if (s === '') return undefined
    if (!(allowNegative ? /^-?\d+(\.\d+)?$/ : /^\d+$/).test(s))
      return { error: allowNegative || s.startsWith('-') ? `${label} harus berupa angka` : `${label} harus berupa angka bulat` }
    n = Number(s)
  } else n = raw
  if (!Number.isFinite(n)) return { error: `${label} harus berupa angka` }
  if (!allowNegative && n < 0) return { error: `${label} tidak boleh negatif` }
  return { value: n }
}

function freeFlag(raw: EventInputBody['is_free']): Parsed<boolean> {
  if (raw === null || raw === undefined || raw === '') return undefined
  const key = typeof raw === 'string' ? raw.trim().toLowerCase() : raw
  if (key === true || key === 1 || key === '1' || key === 'true') return { value: true }
  if (key === false || key === 0 || key === '0' || key === 'false') return { value: false }
  return { error: 'Status gratis (is_free) harus bernilai true, false, 0, atau 1' }
}

/** Tag names from a comma-separated string: trimmed, inner spaces collapsed, de-duplicated case-insensitively. */
export function parseTagNames(raw: string): string[] {
  const seen = new Set<string>()
  const names: string[] = []
  for (const part of raw.split(',')) {
    const name = clean(part).replace(/\s+/g, ' ')
    if (!name || seen.has(name.toLowerCase())) continue
    seen.add(name.toLowerCase())
    names.push(name)
  }
  return names
}

/** Whether a submission's category exists (and is active) and its city exists. */
export interface References {
  category?: { isActive: boolean }
  cityFound: boolean
}
type Lookup = (categoryId: string, cityId: string | null) => Promise<References>

/**
 * The errors of a category and city as found (in the contract's field order); '' or null: not
 * checked.
 */
export function referenceErrors(categoryId: string, cityId: string | null, found: References): FieldError[] {
  const errors: FieldError[] = []
  if (categoryId) {
    if (!found.category) errors.push({ field: 'category_id', message: 'Kategori (category_id) tidak ditemukan' })
    else if (!found.category.isActive)
      errors.push({ field: 'category_id', message: 'Kategori (category_id) sedang tidak aktif, pilih kategori lain' })
  }
  if (cityId && !found.cityFound) errors.push({ field: 'city_id', message: 'Kota (city_id) tidak ditemukan' })
  return errors
}

/**
 * Every rule of a submission, all failures at once (in the contract's field order), each with
 * an Indonesian message that names the field. `lookup` answers whether the category and city
 * exist; without it they are not looked up (the caller checks them with referenceErrors).
 */
export async function validateSubmission(
  body: EventInputBody,
  lookup?: Lookup,
): Promise<{ ok: true; value: Submission } | { ok: false; errors: FieldError[] }> {
  const errors: FieldError[] = []
  const fail = (field: string, message: string) => {
    if (!errors.some((e) => e.field === field)) errors.push({ field, message })
  }
  const required = (field: string, label: string, value: string, max: number) => {
    if (!value) fail(field, `${label} wajib diisi`)
    else if (length(value) > max) fail(field, `${label} maksimal ${max} karakter`)
    return value
  }
  const optional = (field: string, label: string, value: string, max: number) => {
    if (length(value) > max) fail(field, `${label} maksimal ${max} karakter`)
    return value
  }

  const title = required('title', 'Judul', clean(body.title), LIMITS.titleMax)
  if (title && length(title) < LIMITS.titleMin) fail('title', `Judul minimal ${LIMITS.titleMin} karakter`)

  const categoryId = required('category_id', 'Kategori (category_id)', clean(body.category_id), LIMITS.idMax)
  const cityId = optional('city_id', 'Kota (city_id)', clean(body.city_id), LIMITS.idMax) || null

  const startDate = clean(body.start_date)
  if (!startDate) fail('start_date', 'Tanggal mulai wajib diisi')
  else if (!isRealDate(startDate))
    fail('start_date', 'Tanggal mulai tidak valid: gunakan tanggal yang ada dengan format YYYY-MM-DD')
  const endDate = clean(body.end_date) || startDate
  if (!isRealDate(endDate)) {
    if (endDate !== startDate) fail('end_date', 'Tanggal selesai tidak valid: gunakan tanggal yang ada dengan format YYYY-MM-DD')
  } else if (isRealDate(startDate) && endDate < startDate) fail('end_date', 'Tanggal selesai tidak boleh sebelum tanggal mulai')

  const startTime = clean(body.start_time) || null
  if (startTime && !TIME.test(startTime)) fail('start_time', 'Jam mulai harus berformat HH:mm (00:00 sampai 23:59)')
  const endTime = clean(body.end_time) || null
  if (endTime && !TIME.test(endTime)) fail('end_time', 'Jam selesai harus berformat HH:mm (00:00 sampai 23:59)')

  const eventType = (clean(body.event_type).toLowerCase() || 'offline') as EventType
  if (!(EVENT_TYPES as readonly string[]).includes(eventType))
    fail('event_type', 'Jenis event harus salah satu dari offline, online, hybrid')

  const venueName = optional('venue_name', 'Nama tempat', clean(body.venue_name), LIMITS.venueNameMax)
  const venueAddress = optional('venue_address', 'Alamat tempat', clean(body.venue_address), LIMITS.venueAddressMax)
  const organizerName = required('organizer_name', 'Nama penyelenggara', clean(body.organizer_name), LIMITS.organizerMax)
  const contactName = optional('contact_name', 'Nama kontak', clean(body.contact_name), LIMITS.contactNameMax)

  const contactPhone = clean(body.contact_phone)
  const contactEmail = clean(body.contact_email)
  if (!contactPhone && !contactEmail) {
    fail('contact_phone', 'Nomor telepon kontak atau email kontak wajib diisi (salah satu)')
    fail('contact_email', 'Nomor telepon kontak atau email kontak wajib diisi (salah satu)')
  }
  const phoneDigits = contactPhone.replace(/\D/g, '').length
  if (contactPhone && (!PHONE.test(contactPhone) || phoneDigits < 6 || phoneDigits > 15 || contactPhone.length > 30))
    fail('contact_phone', 'Nomor telepon kontak tidak valid: gunakan 6 sampai 15 angka, boleh diawali +')
  if (contactEmail && (contactEmail.length > LIMITS.emailMax || !EMAIL.test(contactEmail)))
    fail('contact_email', 'Email kontak tidak valid')

  const min = amount(body.ticket_price_min, 'Harga tiket minimum')
  const max = amount(body.ticket_price_max, 'Harga tiket maksimum')
  const free = freeFlag(body.is_free)
  const minValue = min && 'value' in min ? min.value : 0
  let maxValue = max && 'value' in max ? max.value : minValue
  if (min && 'error' in min) fail('ticket_price_min', min.error)
  else if (minValue > LIMITS.priceMax) fail('ticket_price_min', `Harga tiket minimum maksimal ${LIMITS.priceMax}`)
  if (max && 'error' in max) fail('ticket_price_max', max.error)
  else if (maxValue > LIMITS.priceMax) fail('ticket_price_max', `Harga tiket maksimum maksimal ${LIMITS.priceMax}`)
  else if (maxValue < minValue) fail('ticket_price_max', 'Harga tiket maksimum tidak boleh lebih kecil dari harga tiket minimum')
  if (free && 'error' in free) fail('is_free', free.error)
  // unless told otherwise, an event with no price above 0 is free
  const isFree = free && 'value' in free ? free.value : minValue === 0 && maxValue === 0
  if (isFree && (minValue > 0 || maxValue > 0)) fail('is_free', 'Event gratis (is_free) harus berharga 0: kosongkan harga tiket')
  if (isFree) maxValue = 0

  const urlField = (field: string, label: string, raw: string | null | undefined) => {
    const value = clean(raw)
    if (!value) return ''
    if (value.length > LIMITS.urlMax) {
      fail(field, `${label} maksimal ${LIMITS.urlMax} karakter`)
      return ''
    }
    const url = httpUrl(value)
    if (!url) fail(field, `${label} harus berupa URL yang diawali http:// atau https://`)
    return url ?? ''
  }
  const ticketUrl = urlField('ticket_url', 'Link tiket (ticket_url)', body.ticket_url)
  const posterUrl = urlField('poster_url', 'URL poster (poster_url)', body.poster_url)

  const tagNames = parseTagNames(clean(body.tags, true))
  if (tagNames.length > LIMITS.tagsMax) fail('tags', `Tag maksimal ${LIMITS.tagsMax} buah`)
  for (const name of tagNames) {
    if (length(name) > LIMITS.tagLengthMax)
      fail(
        'tags',
        `Tag "${[...name].slice(0, 20).join('')}..." terlalu panjang: maksimal ${LIMITS.tagLengthMax} karakter per tag`,
      )
    else if (!/[\p{L}\p{N}]/u.test(name)) fail('tags', `Tag "${name}" harus mengandung huruf atau angka`)
  }

  const rawDescription = clean(body.description, true)
  if (length(rawDescription) > LIMITS.descriptionMax) fail('description', `Deskripsi maksimal ${LIMITS.descriptionMax} karakter`)
  const description = rawDescription ? sanitizeDescription(rawDescription) : ''
  const shortDescription = optional(
    'short_description',
    'Deskripsi singkat',
    clean(body.short_description),
    LIMITS.shortDescriptionMax,
  )

  const lat = amount(body.latitude, 'Latitude', true)
  const lng = amount(body.longitude, 'Longitude', true)
  if (lat && 'error' in lat) fail('latitude', lat.error)
  else if (lat && (lat.value < -90 || lat.value > 90)) fail('latitude', 'Latitude harus berupa angka antara -90 dan 90')
  if (lng && 'error' in lng) fail('longitude', lng.error)
  else if (lng && (lng.value < -180 || lng.value > 180)) fail('longitude', 'Longitude harus berupa angka antara -180 dan 180')
  if (Boolean(lat) !== Boolean(lng)) fail(lat ? 'longitude' : 'latitude', 'Latitude dan longitude harus diisi bersama')

  // existence in the database, only for ids that are well-formed
  const idOk = (field: string, id: string | null) => id && !errors.some((e) => e.field === field)
  const categoryToCheck = idOk('category_id', categoryId) ? categoryId : ''
  const cityToCheck = idOk('city_id', cityId) ? cityId : null
  if (lookup && (categoryToCheck || cityToCheck))
    for (const error of referenceErrors(categoryToCheck, cityToCheck, await lookup(categoryToCheck, cityToCheck)))
      fail(error.field, error.message)

  if (errors.length) {
    errors.sort((a, b) => FIELD_ORDER.indexOf(a.field) - FIELD_ORDER.indexOf(b.field))
    return { ok: false, errors }
  }
  return {
    ok: true,
    value: {
      title,
      categoryId,
      cityId,
      startDate,
      endDate,
      startTime,
      endTime,
      eventType,
      venueName,
      venueAddress,
      organizerName,
      contactName,
      contactPhone,
      contactEmail,
      ticketPriceMin: minValue,
      ticketPriceMax: maxValue,
      isFree,
      ticketUrl,
      posterUrl,
      tags: tagNames,
      description,
      shortDescription,
      latitude: lat && 'value' in lat ? lat.value : null,
      longitude: lng && 'value' in lng ? lng.value : null,
    },
  }
}
