import { t } from 'elysia'

export const SETTINGS_KEYS = [
  'site_title',
  'site_tagline',
  'site_logo',
  'instagram_url',
  'meta_description',
  'contact_email',
  'contact_phone',
  'contact_whatsapp',
] as const

export const statsResponse = t.Object({
  success: t.Literal(true),
  stats: t.Object({
    total_events: t.Integer({ description: 'Semua event, status apa pun' }),
    published_events: t.Integer(),
    total_categories: t.Integer({ description: 'Kategori aktif' }),
    total_cities: t.Integer(),
    total_news: t.Integer({ description: 'Artikel terbit' }),
  }),
})

export const settingsResponse = t.Object({
  success: t.Literal(true),
  settings: t.Object(
    Object.fromEntries(SETTINGS_KEYS.map((k) => [k, t.String()])) as Record<
      (typeof SETTINGS_KEYS)[number],
      ReturnType<typeof t.String>
    >,
  ),
})
