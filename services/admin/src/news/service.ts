import { and, desc, eq, or, sql, type SQL } from 'drizzle-orm'
import { freeSlug, newsArticles, slugifyOr, slugRedirects, textSearch, toIsoUtc, type Database } from '@app/db'
import { HttpError, httpUrl, sanitizeDescription, type FieldError, type PageRequest } from '@app/kit'
import { changedFields, writeAudit, type Tx } from '../audit/service'
import { checkRevision } from '../concurrency'
import { assertSlugFree, checkSlug, recordSlugChange } from '../slugs'
import { cleanLine } from '../text'
import type { NewsFields } from './model'

export const NOT_FOUND = 'Artikel tidak ditemukan'

type Row = typeof newsArticles.$inferSelect

const stateOf = (row: Pick<Row, 'status' | 'publishedAt'>) =>
  row.status === 'draft'
    ? ('draft' as const)
    : row.publishedAt.getTime() > Date.now()
      ? ('scheduled' as const)
      : ('published' as const)

export function toArticle(row: Row) {
  return {
    id: row.id,
    title: row.title,
    slug: row.slug,
    excerpt: row.excerpt,
    content: row.content,
    cover_url: row.coverUrl,
    category: row.category,
    author_name: row.authorName,
    is_featured: row.isFeatured,
    status: stateOf(row),
    published_at: toIsoUtc(row.publishedAt)!,
    created_at: toIsoUtc(row.createdAt)!,
    updated_at: toIsoUtc(row.updatedAt)!,
    revision: row.revision,
  }
}

const articleColumns = {
  id: newsArticles.id,
  title: newsArticles.title,
  slug: newsArticles.slug,
  excerpt: newsArticles.excerpt,
  content: newsArticles.content,
  coverUrl: newsArticles.coverUrl,
  category: newsArticles.category,
  authorName: newsArticles.authorName,
  isFeatured: newsArticles.isFeatured,
  status: newsArticles.status,
  publishedAt: newsArticles.publishedAt,
  createdAt: newsArticles.createdAt,
  updatedAt: newsArticles.updatedAt,
  revision: newsArticles.revision,
}

export async function listAdminArticles({ db }: Database, query: { status?: string; q?: string }, page: PageRequest) {
  const conditions: (SQL | undefined)[] = []
  if (query.status === 'draft') conditions.push(eq(newsArticles.status, 'draft'))
  if (query.status === 'scheduled')
    conditions.push(sql`${newsArticles.status} = 'published' and ${newsArticles.publishedAt} > now()`)
  if (query.status === 'published')
    conditions.push(sql`${newsArticles.status} = 'published' and ${newsArticles.publishedAt} <= now()`)
  const q = query.q?.trim()
  if (q) {
    const exact = or(eq(newsArticles.id, q.toLowerCase()), eq(newsArticles.slug, q.toLowerCase()))
    const words = textSearch(newsArticles.searchVector, newsArticles.searchText, q)
    conditions.push(words ? or(words, exact) : exact)
  }
  const where = and(...conditions)
  const [rows, [{ total }]] = await Promise.all([
    db
      .select(articleColumns)
      .from(newsArticles)
      .where(where)
      .orderBy(desc(newsArticles.updatedAt), desc(newsArticles.id))
      .limit(page.limit)
      .offset(page.offset),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(newsArticles)
      .where(where),
  ])
  return { items: rows.map((r) => toArticle(r as Row)), total }
}

export async function findAdminArticle({ db }: Database, id: string) {
  const [row] = await db.select(articleColumns).from(newsArticles).where(eq(newsArticles.id, id)).limit(1)
  return row ? toArticle(row as Row) : null
}

const length = (s: string) => [...s].length

/** The rules of an article's fields; every failure at once. `creating` makes title and category required. */
function checkFields(input: NewsFields, creating: boolean) {
  const errors: FieldError[] = []
  const out: Partial<typeof newsArticles.$inferInsert> = {}
  const fail = (field: string, message: string) => errors.push({ field, message })
  if (input.title !== undefined || creating) {
    const title = cleanLine(input.title ?? '')
    if (!title) fail('title', 'Judul wajib diisi')
    else if (length(title) < 3) fail('title', 'Judul minimal 3 karakter')
    else out.title = title
  }
  if (input.category !== undefined || creating) {
    const category = cleanLine(input.category ?? '')
    if (!category) fail('category', 'Kategori berita wajib diisi')
    else out.category = category
  }
  if (input.excerpt !== undefined) out.excerpt = cleanLine(input.excerpt ?? '')
  if (input.content !== undefined) out.content = sanitizeDescription((input.content ?? '').replace(/\u0000/g, ''))
  if (input.cover_url !== undefined) {
    const raw = cleanLine(input.cover_url ?? '')
    const url = raw ? httpUrl(raw) : ''
    if (url === null) fail('cover_url', 'URL sampul (cover_url) harus berupa URL yang diawali http:// atau https://')
    else out.coverUrl = url
  }
  if (input.author_name !== undefined) {
    const author = cleanLine(input.author_name ?? '')
    if (!author) fail('author_name', 'Nama penulis tidak boleh kosong')
    else out.authorName = author
  }
  if (input.is_featured !== undefined) out.isFeatured = input.is_featured
  if (input.slug) {
    try {
      out.slug = checkSlug(input.slug)
    } catch (error) {
      fail('slug', (error as Error).message)
    }
  }
  if (errors.length) throw new HttpError(400, errors[0].message, errors)
  return out
}

const auditable = (row: Partial<Row>) => ({
  title: row.title,
  slug: row.slug,
  excerpt: row.excerpt,
  content: row.content,
  cover_url: row.coverUrl,
  category: row.category,
  author_name: row.authorName,
  is_featured: row.isFeatured,
  status: row.status,
  published_at: row.publishedAt ? toIsoUtc(row.publishedAt) : undefined,
})

/** A new article: a draft until published. */
export async function createArticle(database: Database, input: { adminId: string; adminName: string; body: NewsFields }) {
  const values = checkFields(input.body, true)
  return database.db.transaction(async (tx) => {
    const slug =
      values.slug ?? (await freeSlug(tx, newsArticles, newsArticles.slug, slugifyOr(values.title!, 'berita')))
    if (values.slug) await assertSlugFree(tx, newsArticles, newsArticles.slug, newsArticles.id, slug)
    const [row] = await tx
      .insert(newsArticles)
      .values({
        id: Bun.randomUUIDv7(),
        title: values.title!,
        slug,
        category: values.category!,
        excerpt: values.excerpt ?? '',
        content: values.content ?? '',
        coverUrl: values.coverUrl ?? '',
        authorName: values.authorName ?? input.adminName,
        isFeatured: values.isFeatured ?? false,
        status: 'draft',
      })
      .returning()
    await writeAudit(tx, { adminId: input.adminId, action: 'create', entity: 'news', entityId: row.id, after: auditable(row) })
    return toArticle(row)
  })
}

async function lockArticle(tx: Tx, id: string, ifMatch: number | undefined) {
  const [row] = await tx.select().from(newsArticles).where(eq(newsArticles.id, id)).for('update')
  if (!row) throw new HttpError(404, NOT_FOUND)
  checkRevision(ifMatch, row.revision)
  return row
}

async function applyChange(tx: Tx, row: Row, adminId: string, action: string, set: Partial<typeof newsArticles.$inferInsert>) {
  const diff = changedFields(auditable(row), auditable({ ...row, ...set } as Row))
  if (!diff.changed) return { article: toArticle(row), changed: false }
  const [updated] = await tx
    .update(newsArticles)
    .set({ ...set, updatedAt: sql`now()` as any, revision: sql`${newsArticles.revision} + 1` as any })
    .where(eq(newsArticles.id, row.id))
    .returning()
  if (set.slug && set.slug !== row.slug) await recordSlugChange(tx, 'news', row.id, row.slug, set.slug)
  await writeAudit(tx, { adminId, action, entity: 'news', entityId: row.id, before: diff.before, after: diff.after })
  return { article: toArticle(updated), changed: true }
}

export async function updateArticle(
  database: Database,
  input: { id: string; adminId: string; ifMatch: number | undefined; body: NewsFields },
) {
  const values = checkFields(input.body, false)
  return database.db.transaction(async (tx) => {
    const row = await lockArticle(tx, input.id, input.ifMatch)
    if (values.slug && values.slug !== row.slug)
      await assertSlugFree(tx, newsArticles, newsArticles.slug, newsArticles.id, values.slug, row.id)
    return applyChange(tx, row, input.adminId, 'update', values)
  })
}

export async function publishArticle(
  database: Database,
  input: { id: string; adminId: string; ifMatch: number | undefined; at: Date | null },
) {
  return database.db.transaction(async (tx) => {
    const row = await lockArticle(tx, input.id, input.ifMatch)
    const at = input.at ?? new Date()
    return applyChange(tx, row, input.adminId, input.at && input.at.getTime() > Date.now() ? 'schedule' : 'publish', {
      status: 'published',
      publishedAt: at,
    })
  })
}

export async function unpublishArticle(database: Database, input: { id: string; adminId: string; ifMatch: number | undefined }) {
  return database.db.transaction(async (tx) => {
    const row = await lockArticle(tx, input.id, input.ifMatch)
    if (row.status === 'draft') throw new HttpError(409, 'Artikel memang belum terbit (draft)')
    return applyChange(tx, row, input.adminId, 'unpublish', { status: 'draft' })
  })
}

/** Deleted for good (an article has no trash); its old slugs go with it. */
export async function deleteArticle(database: Database, input: { id: string; adminId: string; ifMatch: number | undefined }) {
  await database.db.transaction(async (tx) => {
    const row = await lockArticle(tx, input.id, input.ifMatch)
    await tx.delete(newsArticles).where(eq(newsArticles.id, row.id))
    await tx.delete(slugRedirects).where(and(eq(slugRedirects.entity, 'news'), eq(slugRedirects.targetId, row.id)))
    await writeAudit(tx, { adminId: input.adminId, action: 'delete', entity: 'news', entityId: row.id, before: auditable(row) })
  })
}
