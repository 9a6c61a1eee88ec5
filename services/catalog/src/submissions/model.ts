import { t } from 'elysia'

// The schema only checks JSON types (each with its own Indonesian message); presence, lengths,
// formats and cross-field rules live in service.ts so that every rule failure of a body is
// reported at once. `null` counts as "not given" for every field, like an absent field, so a
// form that sends `city_id: null` or `end_date: null` is not refused for that.

const text = (error: string, description: string, example?: string) =>
  t.Optional(t.Union([t.String(), t.Null()], { error, description, ...(example ? { examples: [example] } : {}) }))

const amount = (error: string, description: string, example: number) =>
  t.Optional(t.Union([t.Number(), t.String(), t.Null()], { error, description, examples: [example] }))

export const submissionBody = t.Object(
  {
    title: text('Judul harus berupa teks', 'Wajib, 3 sampai 200 karakter', 'Festival Musik Pantai'),
    category_id: text('Kategori (category_id) harus berupa teks', 'Wajib: id kategori aktif dari GET /api/categories'),
    city_id: text('Kota (city_id) harus berupa teks', 'Opsional: id kota dari GET /api/cities'),
    start_date: text('Tanggal mulai harus berupa teks dengan format YYYY-MM-DD', 'Wajib, YYYY-MM-DD', '2026-12-31'),
    end_date: text(
      'Tanggal selesai harus berupa teks dengan format YYYY-MM-DD',
      'Opsional, YYYY-MM-DD, tidak sebelum start_date; bawaan sama dengan start_date',
      '2026-12-31',
    ),
    start_time: text('Jam mulai harus berupa teks dengan format HH:mm', 'Opsional, HH:mm waktu setempat', '19:30'),
    end_time: text('Jam selesai harus berupa teks dengan format HH:mm', 'Opsional, HH:mm waktu setempat', '22:00'),
    event_type: text('Jenis event harus salah satu dari offline, online, hybrid', 'offline (bawaan), online, atau hybrid'),
    venue_name: text('Nama tempat harus berupa teks', 'Opsional, maksimal 200 karakter'),
    venue_address: text('Alamat tempat harus berupa teks', 'Opsional, maksimal 500 karakter'),
    organizer_name: text('Nama penyelenggara harus berupa teks', 'Wajib, maksimal 200 karakter'),
    contact_name: text('Nama kontak harus berupa teks', 'Opsional, maksimal 100 karakter'),
    contact_phone: text('Nomor telepon kontak harus berupa teks', 'Wajib bila contact_email kosong', '+62 812 3456 7890'),
    contact_email: text('Email kontak harus berupa teks', 'Wajib bila contact_phone kosong', 'panitia@example.id'),
    ticket_price_min: amount('Harga tiket minimum harus berupa angka', 'Rupiah: angka >= 0 (atau teks berisi digit saja)', 50000),
    ticket_price_max: amount(
      'Harga tiket maksimum harus berupa angka',
      'Rupiah: angka >= ticket_price_min; bawaan sama dengan ticket_price_min',
      150000,
    ),
    is_free: t.Optional(
      t.Union([t.Boolean(), t.Number(), t.String(), t.Null()], {
        error: 'Status gratis (is_free) harus bernilai true, false, 0, atau 1',
        description: 'true/false atau 1/0; gratis berarti harga 0',
      }),
    ),
    ticket_url: text('Link tiket harus berupa teks', 'Opsional, URL http(s)'),
    poster_url: text('URL poster harus berupa teks', 'Opsional, URL http(s) dari POST /api/upload'),
    tags: text(
      'Tag harus berupa teks yang dipisahkan koma',
      'Opsional: nama tag dipisahkan koma, maksimal 10 tag, masing-masing maksimal 40 karakter',
      'Musik, Pantai, Malam Minggu',
    ),
    description: text('Deskripsi harus berupa teks', 'Opsional, HTML (disanitasi sebelum disimpan), maksimal 20000 karakter'),
    short_description: text('Deskripsi singkat harus berupa teks', 'Opsional, teks biasa, maksimal 300 karakter'),
    latitude: amount('Latitude harus berupa angka', 'Opsional, -90 sampai 90; diisi bersama longitude', -6.2),
    longitude: amount('Longitude harus berupa angka', 'Opsional, -180 sampai 180; diisi bersama latitude', 106.8),
  },
  {
    error: 'Data pengajuan harus berupa objek JSON',
    description: 'Field lain (status, id, slug, hitungan) diabaikan.',
  },
)

export type SubmissionBody = typeof submissionBody.static

export const submissionResponse = t.Object({
  success: t.Literal(true),
  message: t.String(),
  event: t.Object({ id: t.String(), title: t.String(), slug: t.String() }),
})
