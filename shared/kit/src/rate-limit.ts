import { sql } from 'drizzle-orm'
import type { Database } from '@app/db'
import { HttpError, MESSAGES } from './errors'

export interface RateLimiter {
  /** Counts one hit; throws a 429 HttpError with Retry-After once `limit` is passed in the window. */
  hit(bucket: string, key: string, limit: number, windowSeconds: number): Promise<void>
}

/**
 * Fixed-window counters in PostgreSQL, so every replica behind the gateway shares one
 * allowance per client; one upsert per limited request.
 */
export function createRateLimiter(database: Database): RateLimiter {
  let calls = 0
  return {
    async hit(bucket, key, limit, windowSeconds) {
      const id = `${bucket}:${key}`
      const [row] = await database.rows<{ count: number; retry_after: number }>(sql`
        insert into rate_limit_hits (key, count, expires_at)
        values (${id}, 1, now() + make_interval(secs => ${windowSeconds}))
        on conflict (key) do update set
          count = case when rate_limit_hits.expires_at <= now() then 1 else rate_limit_hits.count + 1 end,
          expires_at = case when rate_limit_hits.expires_at <= now() then excluded.expires_at else rate_limit_hits.expires_at end
        returning count, ceil(extract(epoch from expires_at - now()))::int as retry_after`)
      // expired rows are only garbage; sweep them now and then rather than on every hit
      if (++calls % 200 === 0) await database.rows(sql`delete from rate_limit_hits where expires_at < now()`)
      if (row.count > limit)
        throw new HttpError(429, MESSAGES.rateLimited, undefined, { 'retry-after': String(Math.max(1, row.retry_after)) })
    },
  }
}
