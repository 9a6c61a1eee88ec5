// Shared by the security tests: real HTTP against the whole app (whole-app.ts).
import { ADMIN } from './whole-app'

export type Answer = { status: number; headers: Headers; body: any; text: string }

export async function send(base: string, path: string, init: RequestInit = {}): Promise<Answer> {
  const res = await fetch(base + path, { redirect: 'manual', ...init })
  const text = await res.text()
  let body: any = text
  try {
    body = JSON.parse(text)
  } catch {}
  return { status: res.status, headers: res.headers, body, text }
}

export const postJson = (base: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
  send(base, path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })

/** `admin_session=<token>` from a fresh login. */
export async function adminCookie(base: string, credentials = ADMIN): Promise<string> {
  const res = await fetch(`${base}/api/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(credentials),
  })
  const cookie = res.headers
    .getSetCookie()
    .find((c) => c.startsWith('admin_session='))
    ?.split(';')[0]
  if (res.status !== 200 || !cookie) throw new Error(`login failed: ${res.status}`)
  return cookie
}

/** A valid public submission, with overrides; the date is a month ahead. */
export function submission(categoryId: string, cityId: string, overrides: Record<string, unknown> = {}) {
  return {
    title: 'Acara Uji Keamanan',
    category_id: categoryId,
    city_id: cityId,
    start_date: new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10),
    start_time: '19:00',
    organizer_name: 'Komunitas Uji',
    contact_email: 'panitia@uji.id',
    ticket_price_min: 25000,
    ...overrides,
  }
}

export async function firstIds(base: string): Promise<{ categoryId: string; cityId: string }> {
  const categories = await send(base, '/api/categories?active_only=1&limit=1')
  const cities = await send(base, '/api/cities?limit=1')
  return { categoryId: categories.body.data[0].id, cityId: cities.body.data[0].id }
}
