import type { Db } from '@app/db'

/**
 * Prepared queries built once per database, on first use: drizzle would otherwise write their
 * SQL again on every call (a hot path's cost, see the related branches and the detail).
 */
export function preparedPerDatabase<T>(build: (db: Db) => T): (db: Db) => T {
  const built = new WeakMap<Db, T>()
  return (db) => {
    let queries = built.get(db)
    if (!queries) built.set(db, (queries = build(db)))
    return queries
  }
}
