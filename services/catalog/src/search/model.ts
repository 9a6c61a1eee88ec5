import { t } from 'elysia'

export const SUGGEST_TYPES = ['category', 'city', 'tag', 'event'] as const

export const suggestQuery = t.Object({
  q: t.String({
    minLength: 1,
    maxLength: 100,
    error: 'q wajib diisi, maksimal 100 karakter',
    description: 'Yang sedang diketik; cocok dengan awal kata (tanpa membedakan huruf besar dan aksen)',
    examples: ['kon'],
  }),
})

export const suggestion = t.Object({
  type: t.Union(
    SUGGEST_TYPES.map((v) => t.Literal(v)),
    { description: 'category, city, tag, atau event' },
  ),
  label: t.String({ description: 'Nama yang ditampilkan (judul event, nama kategori/kota/tag)' }),
  slug: t.String({ description: 'Untuk /api/events/{slug}, ?kategori=, ?kota=, atau ?tag=' }),
})

export const suggestResponse = t.Object({
  success: t.Literal(true),
  data: t.Array(suggestion, { maxItems: 10 }),
})
