/** A LIKE pattern matching `text` anywhere, with LIKE's wildcards in `text` taken literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
}

/** Drizzle maps `numeric` to a string; the API speaks JSON numbers of rupiah. */
export function toNumber(value: string | number | null): number {
  return value === null ? 0 : Number(value)
}

/** `time` columns come back as HH:mm:ss; the API speaks HH:mm. */
export function toHourMinute(value: string | null): string | null {
  return value ? value.slice(0, 5) : null
}

/** ISO 8601 UTC with Z. */
export function toIsoUtc(value: Date | string | null): string | null {
  if (value === null) return null
  return (value instanceof Date ? value : new Date(value)).toISOString()
}
