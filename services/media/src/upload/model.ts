import { t } from 'elysia'

export const uploadResponse = t.Object(
  {
    success: t.Literal(true),
    url: t.String({
      description: 'URL publik berkas',
      examples: ['http://localhost:3000/media/uploads/2026/01/0190f0c2-7a3b-7cc1-9a55-3f6c2e9d1b2a.png'],
    }),
    data: t.Object({ url: t.String({ description: 'Sama dengan url' }) }),
  },
  { description: 'Berkas tersimpan' },
)

/** The request body as OpenAPI shows it (the route reads the body itself, with a size cap). */
export const uploadRequestBody = {
  required: true,
  content: {
    'multipart/form-data': {
      schema: {
        type: 'object',
        required: ['file'],
        properties: {
          file: {
            type: 'string',
            format: 'binary',
            description: 'Gambar PNG, JPG/JPEG, atau WEBP (dikenali dari isi berkas), maksimal 24 MB',
          },
        },
      },
    },
  },
}
