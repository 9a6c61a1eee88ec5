import { t } from 'elysia'

/**
 * The highest page a list serves: page x limit stays an exact integer offset far inside
 * PostgreSQL's bigint (a bigger page once reached the database as `1e+22` and answered 500).
 */
export const MAX_PAGE = 1_000_000

/** `page` and `limit` as every list takes them: integers, 1 <= page <= MAX_PAGE, limit >= 1. */
export const pageQuery = {
  page: t.Optional(t.Integer({ minimum: 1, maximum: MAX_PAGE, error: `page harus berupa angka bulat antara 1 dan ${MAX_PAGE}` })),
  limit: t.Optional(t.Integer({ minimum: 1, error: 'limit harus berupa angka bulat minimal 1' })),
}

export interface PageRequest {
  page: number
  limit: number
  offset: number
}

/** Defaults, and a limit above the maximum is clamped (the response shows the value used). */
export function pageRequest(query: { page?: number; limit?: number }, defaultLimit: number, maxLimit: number): PageRequest {
  const page = query.page ?? 1
  const limit = Math.min(query.limit ?? defaultLimit, maxLimit)
  return { page, limit, offset: (page - 1) * limit }
}

export const paginationSchema = t.Object({
  page: t.Integer(),
  limit: t.Integer(),
  total: t.Integer(),
  total_pages: t.Integer(),
  has_next: t.Boolean(),
  has_prev: t.Boolean(),
})

export const paginationWithLinksSchema = t.Object({
  ...paginationSchema.properties,
  next_page: t.Union([t.Integer(), t.Null()]),
  prev_page: t.Union([t.Integer(), t.Null()]),
})

/** The contract's pagination object; events and news also carry next_page/prev_page. */
export type Pagination = {
  page: number
  limit: number
  total: number
  total_pages: number
  has_next: boolean
  has_prev: boolean
}
export type PaginationWithLinks = Pagination & { next_page: number | null; prev_page: number | null }

export function pagination(req: PageRequest, total: number): Pagination
export function pagination(req: PageRequest, total: number, withLinks: true): PaginationWithLinks
export function pagination(req: PageRequest, total: number, withLinks = false): Pagination | PaginationWithLinks {
  const totalPages = Math.ceil(total / req.limit)
  const hasNext = req.page < totalPages
  const hasPrev = req.page > 1
  const base = {
    page: req.page,
    limit: req.limit,
    total,
    total_pages: totalPages,
    has_next: hasNext,
    has_prev: hasPrev,
  }
  if (!withLinks) return base
  // prev of a page past the end is the last real page, so a client can always step back
  return {
    ...base,
    next_page: hasNext ? req.page + 1 : null,
    prev_page: hasPrev ? Math.min(req.page - 1, Math.max(totalPages, 1)) : null,
  }
}

/**
 * One of fixed string values. (t.UnionEnum is not used for inputs: Elysia fills an absent
 * optional UnionEnum with its first value, which would silently turn on a filter.)
 */
export function oneOf<const T extends string>(
  values: readonly T[],
  options: { error?: string; description?: string; default?: T } = {},
) {
  type Literal = ReturnType<typeof t.Literal<T>>
  return t.Union(
    values.map((v) => t.Literal(v)),
    options,
  ) as unknown as ReturnType<typeof t.Union<[Literal]>>
}
