// SQL ceilings with random parameters, from the SQL the service itself sends: the service's own
// functions run once per request shape on a driver that records every statement it sends, and
// pgbench replays those statements with a parameter row drawn at random per transaction. A schema,
// index or query-builder change therefore changes the ceiling too; it cannot silently drift apart
// from what the service runs (as bench/sql/list.sql once did).
import { drizzle } from 'drizzle-orm/postgres-js'
import postgres from 'postgres'
import { schema, type Database, type Db } from '@app/db'

export interface Captured {
  query: string
  params: unknown[]
}

/** Runs `fn` on a database whose driver records each statement and its parameters. */
export async function captureQueries(url: string, fn: (database: Database) => Promise<unknown>): Promise<Captured[]> {
  const captured: Captured[] = []
  const client = postgres(url, {
    max: 1,
    onnotice: () => {},
    // postgres.js looks up array types once per connection: not part of any request
    debug: (_connection, query, params) => {
      if (!query.includes('pg_catalog.pg_type')) captured.push({ query, params: [...params] })
    },
  })
  const db = drizzle(client, { schema }) as unknown as Db
  const database: Database = {
    db,
    kind: 'postgres',
    url,
    rows: async <T>(query: Parameters<Database['rows']>[0]) => (await db.execute(query)) as unknown as T[],
    ping: async () => {},
    pool: () => ({ inFlight: 0, max: 1 }),
    listen: async () => async () => {},
    close: () => client.end({ timeout: 5 }),
  }
  try {
    await fn(database)
  } finally {
    await database.close()
  }
  return captured
}

const literal = (value: unknown) =>
  typeof value === 'number' || typeof value === 'bigint' ? String(value) : `'${String(value).replace(/'/g, "''")}'`

/**
 * A pgbench script: a random row of `table` (columns become variables), then the captured
 * statements with each parameter that equals a sample value replaced by its variable and every
 * other parameter inlined as a literal.
 */
export function pgbenchScript(captured: Captured[], table: string, rows: number, variables: Record<string, unknown>): string {
  const byValue = new Map(Object.entries(variables).map(([name, value]) => [String(value), name]))
  const lines = [`\\set r random(1, ${rows})`, `SELECT ${Object.keys(variables).join(', ')} FROM ${table} WHERE n = :r \\gset`]
  for (const { query, params } of captured) {
    const text = query.replace(/\$(\d+)/g, (_, index) => {
      const value = params[Number(index) - 1]
      const variable = byValue.get(String(value))
      return variable ? `:${variable}` : literal(value)
    })
    // pgbench reads one statement per line unless it ends with a semicolon
    lines.push(`${text.replace(/\s*\n\s*/g, ' ')};`)
  }
  return `${lines.join('\n')}\n`
}

/** pgbench's transactions per second for one script. */
export async function pgbench(url: string, script: string, file: string, clients: number, seconds: number): Promise<number> {
  await Bun.write(file, script)
  const proc = Bun.spawn(
    ['pgbench', '-n', '-M', 'prepared', '-c', String(clients), '-j', '2', '-T', String(seconds), '-f', file, url],
    {
      stdout: 'pipe',
      stderr: 'pipe',
    },
  )
  const killer = setTimeout(() => proc.kill('SIGKILL'), (seconds + 60) * 1000)
  const [out, err] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()])
  await proc.exited
  clearTimeout(killer)
  const tps = /tps = ([0-9.]+)/.exec(out)
  if (!tps) throw new Error(`pgbench gave no tps for ${file}:\n${out}\n${err}`)
  return Math.round(Number(tps[1]))
}
