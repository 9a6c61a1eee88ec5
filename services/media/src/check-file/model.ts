import { t } from 'elysia'

export const checkFileQuery = t.Object({
  url: t.String({
    minLength: 1,
    maxLength: 2048,
    description: 'URL lengkap berkas dari POST /api/upload',
  }),
})

export const checkFileResponse = t.Object(
  {
    url: t.String({ description: 'URL yang diperiksa, seperti dikirim' }),
    exists: t.Boolean(),
    status: t.Union([t.Literal(200), t.Literal(404)], { description: 'Status HTTP berkas: 200 ada, 404 tidak ada' }),
    timestamp: t.String({ format: 'date-time', description: 'Waktu pemeriksaan, ISO 8601 UTC' }),
  },
  { description: 'Hasil pemeriksaan (tanpa field success, sesuai kontrak)' },
)
