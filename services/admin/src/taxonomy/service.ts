// Categories, cities and tags: create, update, delete (refused with 409 while events use it),
// and merging two tags. Each change is one transaction with its audit row.
import { asc, eq, sql } from 'drizzle-orm'
import type { PgTable } from 'drizzle-orm/pg-core'
import { categories, cities, eventTags, events, freeSlug, slugifyOr, tags, type Database } from '@app/db'
import { HttpError, httpUrl, type FieldError } from '@app/kit'
import { changedFields, writeAudit, type Tx } from '../audit/service'
import { assertSlugFree, checkSlug } from '../slugs'
import { cleanLine } from '../text'
import type { CategoryBody, CityBody, TagBody } from './model'

export async function listCategories({ db }: Database) {
  const rows = await db
    .select({
      id: categories.id,
      name: categories.name,
      slug: categories.slug,
      description: categories.description,
      icon: categories.icon,
      image_url: categories.imageUrl,
      is_active: categories.isActive,
      sort_order: categories.sortOrder,
      event_count: sql<number>`(select count(*)::int from events e where e.category_id = "categories"."id")`,
    })
    .from(categories)
    .orderBy(asc(categories.sortOrder), asc(categories.name), asc(categories.id))
  return rows
}

export async function listCities({ db }: Database) {
  return db
    .select({
      id: cities.id,
      name: cities.name,
      slug: cities.slug,
      province: cities.province,
      country: cities.country,
      time_zone: cities.timeZone,
      image_url: cities.imageUrl,
      event_count: sql<number>`(select count(*)::int from events e where e.city_id = "cities"."id")`,
    })
    .from(cities)
    .orderBy(asc(cities.name), asc(cities.id))
}

export async function listTags({ db }: Database) {
  return db
    .select({
      id: tags.id,
      name: tags.name,
      slug: tags.slug,
      event_count: sql<number>`(select count(*)::int from event_tags et where et.tag_id = "tags"."id")`,
    })
    .from(tags)
    .orderBy(asc(tags.name), asc(tags.id))
}

/** A valid IANA time zone name (Asia/Jakarta), not an offset or abbreviation. */
export function isIanaZone(zone: string): boolean {
  if (!/^[A-Za-z]+(?:\/[A-Za-z0-9_+-]+)+$/.test(zone)) return false
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone })
    return true
  } catch {
    return false
  }
}

class Errors {
  list: FieldError[] = []
  fail(field: string, message: string) {
    this.list.push({ field, message })
  }
  throwIfAny() {
    if (this.list.length) throw new HttpError(400, this.list[0].message, this.list)
  }
}

function required(errors: Errors, field: string, label: string, raw: string | null | undefined, creating: boolean) {
  if (raw === undefined && !creating) return undefined
  const value = cleanLine(raw ?? '')
  if (!value) errors.fail(field, `${label} wajib diisi`)
  return value
}

function url(errors: Errors, field: string, raw: string | null | undefined) {
  if (raw === undefined) return undefined
  const value = cleanLine(raw ?? '')
  if (!value) return ''
  const ok = httpUrl(value)
  if (!ok) errors.fail(field, 'URL gambar (image_url) harus diawali http:// atau https://')
  return ok ?? ''
}

function slugField(errors: Errors, raw: string | null | undefined) {
  if (!raw) return undefined
  try {
    return checkSlug(raw)
  } catch (error) {
    errors.fail('slug', (error as Error).message)
    return undefined
  }
}

const strip = <T extends Record<string, unknown>>(o: T) =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>

function categoryValues(body: CategoryBody, creating: boolean) {
  const errors = new Errors()
  const values = strip({
    name: required(errors, 'name', 'Nama kategori', body.name, creating),
    slug: slugField(errors, body.slug),
    description: body.description === undefined ? undefined : cleanLine(body.description ?? ''),
    icon: body.icon === undefined ? undefined : cleanLine(body.icon ?? ''),
    imageUrl: url(errors, 'image_url', body.image_url),
    isActive: body.is_active,
    sortOrder: body.sort_order,
  })
  errors.throwIfAny()
  return values
}

function cityValues(body: CityBody, creating: boolean) {
  const errors = new Errors()
  const name = required(errors, 'name', 'Nama kota', body.name, creating)
  const province = required(errors, 'province', 'Provinsi', body.province, creating)
  let timeZone: string | undefined
  if (body.time_zone !== undefined || creating) {
    timeZone = cleanLine(body.time_zone ?? '') || (creating ? 'Asia/Jakarta' : '')
    if (!isIanaZone(timeZone))
      errors.fail(
        'time_zone',
        `Zona waktu "${timeZone}" bukan zona waktu IANA yang dikenal (mis. Asia/Jakarta, Asia/Makassar, Asia/Jayapura)`,
      )
  }
  const values = strip({
    name,
    slug: slugField(errors, body.slug),
    province,
    country: body.country === undefined ? undefined : cleanLine(body.country ?? '') || 'Indonesia',
    timeZone,
    imageUrl: url(errors, 'image_url', body.image_url),
  })
  errors.throwIfAny()
  return values
}

function tagValues(body: TagBody, creating: boolean) {
  const errors = new Errors()
  const name = required(errors, 'name', 'Nama tag', body.name, creating)?.replace(/\s+/g, ' ')
  if (name && !/[\p{L}\p{N}]/u.test(name)) errors.fail('name', 'Nama tag harus mengandung huruf atau angka')
  if (name && name.includes(',')) errors.fail('name', 'Nama tag tidak boleh mengandung koma')
  const values = strip({ name, slug: slugField(errors, body.slug) })
  errors.throwIfAny()
  return values
}

type Kind = 'category' | 'city' | 'tag'
const TABLES = { category: categories, city: cities, tag: tags } as const
const LABEL: Record<Kind, string> = { category: 'Kategori', city: 'Kota', tag: 'Tag' }

const snake = (o: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(o).map(([k, v]) => [k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), v]))

async function usage(tx: Tx, kind: Kind, id: string): Promise<number> {
  const [row] =
    kind === 'tag'
      ? await tx
          .select({ n: sql<number>`count(*)::int` })
          .from(eventTags)
          .where(eq(eventTags.tagId, id))
      : await tx
          .select({ n: sql<number>`count(*)::int` })
          .from(events)
          .where(kind === 'category' ? eq(events.categoryId, id) : eq(events.cityId, id))
  return Number(row.n)
}

async function uniqueName(tx: Tx, kind: Kind, name: string | undefined, exceptId?: string) {
  if (kind !== 'tag' || !name) return
  const [clash] = await tx
    .select({ id: tags.id })
    .from(tags)
    .where(sql`lower(${tags.name}) = lower(${name}) ${exceptId ? sql`and ${tags.id} <> ${exceptId}` : sql``}`)
  if (clash)
    throw new HttpError(409, `Tag "${name}" sudah ada (gunakan penggabungan tag bila ingin menyatukan)`, [
      { field: 'name', message: `Tag "${name}" sudah ada` },
    ])
}

function valuesOf(kind: Kind, body: any, creating: boolean): Record<string, any> {
  return kind === 'category'
    ? categoryValues(body, creating)
    : kind === 'city'
      ? cityValues(body, creating)
      : tagValues(body, creating)
}

export async function createTerm(database: Database, kind: Kind, adminId: string, body: unknown) {
  const values = valuesOf(kind, body, true)
  const table = TABLES[kind] as any
  return database.db.transaction(async (tx) => {
    await uniqueName(tx, kind, values.name)
    const slug =
      values.slug ??
      (await freeSlug(
        tx,
        table as PgTable,
        table.slug,
        slugifyOr(values.name, kind === 'tag' ? 'tag' : kind === 'city' ? 'kota' : 'kategori'),
      ))
    if (values.slug) await assertSlugFree(tx, table, table.slug, table.id, slug)
    const row = (
      (await tx
        .insert(table)
        .values({ id: Bun.randomUUIDv7(), ...values, slug })
        .returning()) as any[]
    )[0]
    await writeAudit(tx, { adminId, action: 'create', entity: kind, entityId: row.id, after: snake({ ...values, slug }) })
    const { created_at: _, ...out } = snake(row)
    return { ...out, event_count: 0 }
  })
}

export async function updateTerm(database: Database, kind: Kind, adminId: string, id: string, body: unknown) {
  const values = valuesOf(kind, body, false)
  const table = TABLES[kind] as any
  return database.db.transaction(async (tx) => {
    const [row] = await tx.select().from(table).where(eq(table.id, id)).for('update')
    if (!row) throw new HttpError(404, `${LABEL[kind]} tidak ditemukan`)
    await uniqueName(tx, kind, values.name, id)
    if (values.slug && values.slug !== (row as any).slug) await assertSlugFree(tx, table, table.slug, table.id, values.slug, id)
    const diff = changedFields(snake(row as any), snake(values))
    let current = row as any
    if (diff.changed) {
      current = ((await tx.update(table).set(values).where(eq(table.id, id)).returning()) as any[])[0]
      await writeAudit(tx, { adminId, action: 'update', entity: kind, entityId: id, before: diff.before, after: diff.after })
    }
    const { created_at: _, ...out } = snake(current)
    return { result: { ...out, event_count: await usage(tx, kind, id) }, changed: diff.changed }
  })
}

export async function deleteTerm(database: Database, kind: Kind, adminId: string, id: string) {
  const table = TABLES[kind] as any
  await database.db.transaction(async (tx) => {
    const [row] = await tx.select().from(table).where(eq(table.id, id)).for('update')
    if (!row) throw new HttpError(404, `${LABEL[kind]} tidak ditemukan`)
    const used = await usage(tx, kind, id)
    if (used > 0)
      throw new HttpError(
        409,
        `${LABEL[kind]} "${(row as any).name}" masih dipakai oleh ${used} event (termasuk yang belum terbit atau di tempat sampah). Pindahkan event tersebut dulu${kind === 'tag' ? ' atau gabungkan tag ini ke tag lain' : kind === 'category' ? ' atau nonaktifkan kategori ini' : ''}.`,
      )
    await tx.delete(table).where(eq(table.id, id))
    const { created_at: _, ...before } = snake(row as any)
    await writeAudit(tx, { adminId, action: 'delete', entity: kind, entityId: id, before })
  })
}

/** Every event of tag `id` gets tag `intoId` (kept once), then `id` is deleted. */
export async function mergeTags(database: Database, adminId: string, id: string, intoId: string) {
  if (id === intoId)
    throw new HttpError(400, 'Tag tidak dapat digabungkan dengan dirinya sendiri', [
      { field: 'into_id', message: 'Pilih tag lain' },
    ])
  return database.db.transaction(async (tx) => {
    const rows = await tx
      .select()
      .from(tags)
      .where(sql`${tags.id} in (${id}, ${intoId})`)
      .for('update')
    const source = rows.find((r) => r.id === id)
    const target = rows.find((r) => r.id === intoId)
    if (!source) throw new HttpError(404, 'Tag tidak ditemukan')
    if (!target)
      throw new HttpError(404, 'Tag tujuan (into_id) tidak ditemukan', [
        { field: 'into_id', message: 'Tag tujuan tidak ditemukan' },
      ])
    const moved = await tx.execute(sql`
      insert into event_tags (event_id, tag_id)
      select event_id, ${intoId} from event_tags where tag_id = ${id}
      on conflict do nothing`)
    void moved
    const links = await usage(tx, 'tag', id)
    await tx.delete(tags).where(eq(tags.id, id))
    await writeAudit(tx, {
      adminId,
      action: 'merge',
      entity: 'tag',
      entityId: id,
      before: { name: source.name, slug: source.slug, event_count: links },
      after: { merged_into: intoId, name: target.name },
    })
    return { id: target.id, name: target.name, slug: target.slug, event_count: await usage(tx, 'tag', intoId) }
  })
}
