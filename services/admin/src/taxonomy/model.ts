import { t } from 'elysia'

const str = (error: string, maxLength: number, description?: string) =>
  t.Optional(t.Union([t.String({ maxLength }), t.Null()], { error, description }))

export const categoryBody = t.Object(
  {
    name: str('Nama kategori harus berupa teks, maksimal 100 karakter', 100, 'Wajib saat membuat'),
    slug: str('Slug harus berupa teks, maksimal 200 karakter', 200, 'Opsional: dari nama bila kosong'),
    description: str('Deskripsi kategori harus berupa teks, maksimal 1000 karakter', 1000),
    icon: str('Ikon harus berupa teks, maksimal 50 karakter', 50),
    image_url: str('URL gambar harus berupa teks', 2000, 'URL http(s)'),
    is_active: t.Optional(t.Boolean({ error: 'is_active harus true atau false' })),
    sort_order: t.Optional(t.Integer({ minimum: -100000, maximum: 100000, error: 'sort_order harus berupa angka bulat' })),
  },
  { error: 'Data kategori harus berupa objek JSON' },
)

export const cityBody = t.Object(
  {
    name: str('Nama kota harus berupa teks, maksimal 100 karakter', 100, 'Wajib saat membuat'),
    slug: str('Slug harus berupa teks, maksimal 200 karakter', 200, 'Opsional: dari nama bila kosong'),
    province: str('Provinsi harus berupa teks, maksimal 100 karakter', 100, 'Wajib saat membuat'),
    country: str('Negara harus berupa teks, maksimal 100 karakter', 100, 'Bawaan Indonesia'),
    time_zone: str('Zona waktu harus berupa teks', 64, 'Zona waktu IANA, mis. Asia/Jakarta, Asia/Makassar, Asia/Jayapura'),
    image_url: str('URL gambar harus berupa teks', 2000, 'URL http(s)'),
  },
  { error: 'Data kota harus berupa objek JSON' },
)

export const tagBody = t.Object(
  {
    name: str(
      'Nama tag harus berupa teks, maksimal 40 karakter',
      40,
      'Wajib saat membuat; unik tanpa membedakan huruf besar/kecil',
    ),
    slug: str('Slug harus berupa teks, maksimal 200 karakter', 200, 'Opsional: dari nama bila kosong'),
  },
  { error: 'Data tag harus berupa objek JSON' },
)

export const mergeBody = t.Object(
  { into_id: t.String({ minLength: 1, maxLength: 100, error: 'into_id (id tag tujuan) wajib diisi' }) },
  { error: 'Data penggabungan harus berupa objek JSON {into_id}' },
)

export const idParams = t.Object({ id: t.String({ minLength: 1, maxLength: 100, error: 'id tidak valid' }) })

const category = t.Object({
  id: t.String(),
  name: t.String(),
  slug: t.String(),
  description: t.String(),
  icon: t.String(),
  image_url: t.String(),
  is_active: t.Boolean(),
  sort_order: t.Integer(),
  event_count: t.Integer({ description: 'Semua event yang memakai kategori ini (status apa pun)' }),
})
const city = t.Object({
  id: t.String(),
  name: t.String(),
  slug: t.String(),
  province: t.String(),
  country: t.String(),
  time_zone: t.String(),
  image_url: t.String(),
  event_count: t.Integer(),
})
const tag = t.Object({ id: t.String(), name: t.String(), slug: t.String(), event_count: t.Integer() })

export const categoryList = t.Object({ success: t.Literal(true), categories: t.Array(category) })
export const categoryResponse = t.Object({ success: t.Literal(true), category })
export const cityList = t.Object({ success: t.Literal(true), cities: t.Array(city) })
export const cityResponse = t.Object({ success: t.Literal(true), city })
export const tagList = t.Object({ success: t.Literal(true), tags: t.Array(tag) })
export const tagResponse = t.Object({ success: t.Literal(true), tag })
export const messageResponse = t.Object({ success: t.Literal(true), message: t.String() })

export type CategoryBody = typeof categoryBody.static
export type CityBody = typeof cityBody.static
export type TagBody = typeof tagBody.static
