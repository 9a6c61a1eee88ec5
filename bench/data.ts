// bun run bench:data -- --events 100000 [--news 5000 --tags 1000 --categories 30 --cities 120]
//
// Fills the PostgreSQL database at DATABASE_URL with a large, realistic catalogue for the
// benchmarks: migrates it, TRUNCATEs the catalogue tables (events, event_tags, tags,
// categories, cities, news_articles, and moderation_log which references events), then inserts
// everything set-based (INSERT ... SELECT FROM generate_series) with deterministic
// pseudo-random values (hashint8extended of the row number), so two runs on the same day give
// the same rows. Event dates are relative to today (past and future); everything else is fixed.
//
// The shape follows the Directus peer's seed (/work/shared/peer/seed.sql) so the two are
// comparable: cities 1-10 get half of all events, 90% of events are published, 30 categories.
// Our schema has more: descriptions (HTML) so full-text search has something to find, tags
// (~3 per event, popular ones more often), news articles, time zones per city.
//
// The secondary indexes and foreign keys of events, event_tags and news_articles are dropped
// before the load and re-created from their own definitions (pg_get_indexdef,
// pg_get_constraintdef) afterwards, also when the load fails: building a GIN index once is
// several times faster than maintaining it row by row, and one validation join is much cheaper
// than a foreign-key trigger per row. Inserts and index builds run on two connections (the
// generated search columns make the insert CPU-bound). ~20-25 s on 2 idle cores. Finally VACUUM
// (ANALYZE) is repeated until the visibility map of events is settled (>= 99% all-visible
// pages), else every count(*) is a full scan.
//
// This is a bench database: everything in those tables is replaced. Refuses to run without
// DATABASE_URL (it never touches the embedded PGlite database).
import postgres from 'postgres'
import { parseArgs } from 'node:util'
import { createDb, migrateDb } from '@app/db'
import { CITY_CENTRES } from './city-centres'
import { datasetCounts } from './dataset'

const { values: args } = parseArgs({
  args: Bun.argv.slice(2),
  options: {
    events: { type: 'string', default: '100000' },
    news: { type: 'string', default: '5000' },
    tags: { type: 'string', default: '1000' },
    categories: { type: 'string', default: '30' },
    cities: { type: 'string', default: '120' },
    quiet: { type: 'boolean', default: false },
  },
})

const counts = {
  events: positive('events', args.events!),
  news: positive('news', args.news!),
  tags: positive('tags', args.tags!),
  categories: positive('categories', args.categories!),
  cities: positive('cities', args.cities!),
}

function positive(name: string, value: string): number {
  const n = Number(value)
  if (!Number.isInteger(n) || n < 1) {
    console.error(`bench:data: --${name} must be a positive integer, got "${value}"`)
    process.exit(2)
  }
  return n
}

const url = process.env.DATABASE_URL
if (!url) {
  console.error('bench:data: DATABASE_URL is not set (this replaces the catalogue tables: point it at a bench database)')
  process.exit(2)
}
if (counts.cities < 11) {
  console.error('bench:data: --cities must be at least 11 (cities 1-10 get half of the events)')
  process.exit(2)
}

// ------------------------------------------------------------------ reference data

const CATEGORIES: [name: string, slug: string, icon: string][] = [
  ['Musik', 'musik', 'music'],
  ['Seni & Budaya', 'seni-budaya', 'palette'],
  ['Olahraga', 'olahraga', 'sports'],
  ['Teknologi', 'teknologi', 'memory'],
  ['Bisnis', 'bisnis', 'business_center'],
  ['Pendidikan', 'pendidikan', 'school'],
  ['Kuliner', 'kuliner', 'restaurant'],
  ['Pameran', 'pameran', 'museum'],
  ['Festival', 'festival', 'celebration'],
  ['Komedi', 'komedi', 'mood'],
  ['Teater', 'teater', 'theater_comedy'],
  ['Film', 'film', 'movie'],
  ['Fotografi', 'fotografi', 'photo_camera'],
  ['Kesehatan', 'kesehatan', 'health_and_safety'],
  ['Keluarga & Anak', 'keluarga-anak', 'family_restroom'],
  ['Otomotif', 'otomotif', 'directions_car'],
  ['Fashion', 'fashion', 'checkroom'],
  ['Gaming', 'gaming', 'sports_esports'],
  ['Religi', 'religi', 'mosque'],
  ['Lingkungan', 'lingkungan', 'eco'],
  ['Wisata', 'wisata', 'travel_explore'],
  ['Sosial & Amal', 'sosial-amal', 'volunteer_activism'],
  ['Startup', 'startup', 'rocket_launch'],
  ['Desain', 'desain', 'design_services'],
  ['Literasi & Buku', 'literasi-buku', 'menu_book'],
  ['Karier', 'karier', 'work'],
  ['Keuangan', 'keuangan', 'payments'],
  ['Hobi & Komunitas', 'hobi-komunitas', 'groups'],
  ['Tari', 'tari', 'nightlife'],
  ['Kerajinan', 'kerajinan', 'handyman'],
]

// Same 120 cities as the peer's seed; ids 1-10 are the big ones (half of all events).
const CITIES: [name: string, province: string][] = [
  ['Jakarta Selatan', 'DKI Jakarta'],
  ['Bandung', 'Jawa Barat'],
  ['Surabaya', 'Jawa Timur'],
  ['Yogyakarta', 'DI Yogyakarta'],
  ['Jakarta Pusat', 'DKI Jakarta'],
  ['Semarang', 'Jawa Tengah'],
  ['Medan', 'Sumatera Utara'],
  ['Denpasar', 'Bali'],
  ['Makassar', 'Sulawesi Selatan'],
  ['Malang', 'Jawa Timur'],
  ['Jakarta Barat', 'DKI Jakarta'],
  ['Jakarta Timur', 'DKI Jakarta'],
  ['Jakarta Utara', 'DKI Jakarta'],
  ['Bekasi', 'Jawa Barat'],
  ['Bogor', 'Jawa Barat'],
  ['Depok', 'Jawa Barat'],
  ['Cimahi', 'Jawa Barat'],
  ['Cirebon', 'Jawa Barat'],
  ['Sukabumi', 'Jawa Barat'],
  ['Tasikmalaya', 'Jawa Barat'],
  ['Banjar', 'Jawa Barat'],
  ['Karawang', 'Jawa Barat'],
  ['Purwakarta', 'Jawa Barat'],
  ['Garut', 'Jawa Barat'],
  ['Tangerang', 'Banten'],
  ['Tangerang Selatan', 'Banten'],
  ['Serang', 'Banten'],
  ['Cilegon', 'Banten'],
  ['Surakarta', 'Jawa Tengah'],
  ['Magelang', 'Jawa Tengah'],
  ['Salatiga', 'Jawa Tengah'],
  ['Pekalongan', 'Jawa Tengah'],
  ['Tegal', 'Jawa Tengah'],
  ['Purwokerto', 'Jawa Tengah'],
  ['Kudus', 'Jawa Tengah'],
  ['Klaten', 'Jawa Tengah'],
  ['Jepara', 'Jawa Tengah'],
  ['Sleman', 'DI Yogyakarta'],
  ['Bantul', 'DI Yogyakarta'],
  ['Batu', 'Jawa Timur'],
  ['Kediri', 'Jawa Timur'],
  ['Blitar', 'Jawa Timur'],
  ['Madiun', 'Jawa Timur'],
  ['Mojokerto', 'Jawa Timur'],
  ['Pasuruan', 'Jawa Timur'],
  ['Probolinggo', 'Jawa Timur'],
  ['Sidoarjo', 'Jawa Timur'],
  ['Gresik', 'Jawa Timur'],
  ['Jember', 'Jawa Timur'],
  ['Banyuwangi', 'Jawa Timur'],
  ['Badung', 'Bali'],
  ['Gianyar', 'Bali'],
  ['Singaraja', 'Bali'],
  ['Mataram', 'Nusa Tenggara Barat'],
  ['Bima', 'Nusa Tenggara Barat'],
  ['Kupang', 'Nusa Tenggara Timur'],
  ['Labuan Bajo', 'Nusa Tenggara Timur'],
  ['Ende', 'Nusa Tenggara Timur'],
  ['Banda Aceh', 'Aceh'],
  ['Lhokseumawe', 'Aceh'],
  ['Langsa', 'Aceh'],
  ['Binjai', 'Sumatera Utara'],
  ['Pematangsiantar', 'Sumatera Utara'],
  ['Tebing Tinggi', 'Sumatera Utara'],
  ['Sibolga', 'Sumatera Utara'],
  ['Padangsidimpuan', 'Sumatera Utara'],
  ['Padang', 'Sumatera Barat'],
  ['Bukittinggi', 'Sumatera Barat'],
  ['Payakumbuh', 'Sumatera Barat'],
  ['Solok', 'Sumatera Barat'],
  ['Pekanbaru', 'Riau'],
  ['Dumai', 'Riau'],
  ['Batam', 'Kepulauan Riau'],
  ['Tanjungpinang', 'Kepulauan Riau'],
  ['Jambi', 'Jambi'],
  ['Sungai Penuh', 'Jambi'],
  ['Palembang', 'Sumatera Selatan'],
  ['Prabumulih', 'Sumatera Selatan'],
  ['Lubuklinggau', 'Sumatera Selatan'],
  ['Pagar Alam', 'Sumatera Selatan'],
  ['Pangkalpinang', 'Kepulauan Bangka Belitung'],
  ['Tanjung Pandan', 'Kepulauan Bangka Belitung'],
  ['Bengkulu', 'Bengkulu'],
  ['Bandar Lampung', 'Lampung'],
  ['Metro', 'Lampung'],
  ['Pontianak', 'Kalimantan Barat'],
  ['Singkawang', 'Kalimantan Barat'],
  ['Palangka Raya', 'Kalimantan Tengah'],
  ['Banjarmasin', 'Kalimantan Selatan'],
  ['Banjarbaru', 'Kalimantan Selatan'],
  ['Samarinda', 'Kalimantan Timur'],
  ['Balikpapan', 'Kalimantan Timur'],
  ['Bontang', 'Kalimantan Timur'],
  ['Tarakan', 'Kalimantan Utara'],
  ['Tanjung Selor', 'Kalimantan Utara'],
  ['Manado', 'Sulawesi Utara'],
  ['Bitung', 'Sulawesi Utara'],
  ['Tomohon', 'Sulawesi Utara'],
  ['Kotamobagu', 'Sulawesi Utara'],
  ['Gorontalo', 'Gorontalo'],
  ['Palu', 'Sulawesi Tengah'],
  ['Poso', 'Sulawesi Tengah'],
  ['Mamuju', 'Sulawesi Barat'],
  ['Parepare', 'Sulawesi Selatan'],
  ['Palopo', 'Sulawesi Selatan'],
  ['Gowa', 'Sulawesi Selatan'],
  ['Maros', 'Sulawesi Selatan'],
  ['Kendari', 'Sulawesi Tenggara'],
  ['Baubau', 'Sulawesi Tenggara'],
  ['Ambon', 'Maluku'],
  ['Tual', 'Maluku'],
  ['Ternate', 'Maluku Utara'],
  ['Tidore Kepulauan', 'Maluku Utara'],
  ['Sofifi', 'Maluku Utara'],
  ['Jayapura', 'Papua'],
  ['Manokwari', 'Papua Barat'],
  ['Sorong', 'Papua Barat Daya'],
  ['Merauke', 'Papua Selatan'],
  ['Nabire', 'Papua Tengah'],
  ['Timika', 'Papua Tengah'],
]

const WITA = new Set([
  'Bali',
  'Nusa Tenggara Barat',
  'Nusa Tenggara Timur',
  'Kalimantan Selatan',
  'Kalimantan Timur',
  'Kalimantan Utara',
  'Sulawesi Utara',
  'Gorontalo',
  'Sulawesi Tengah',
  'Sulawesi Barat',
  'Sulawesi Selatan',
  'Sulawesi Tenggara',
])
const WIT = new Set(['Maluku', 'Maluku Utara', 'Papua', 'Papua Barat', 'Papua Barat Daya', 'Papua Selatan', 'Papua Tengah'])
const timeZoneOf = (province: string) =>
  WIT.has(province) ? 'Asia/Jayapura' : WITA.has(province) ? 'Asia/Makassar' : 'Asia/Jakarta'

const slugify = (s: string) =>
  s
    .toLowerCase()
    .replace(/&/g, ' dan ')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')

function categoryRows(n: number) {
  return Array.from({ length: n }, (_, i) => {
    const [name, slug, icon] = CATEGORIES[i % CATEGORIES.length]
    const round = Math.floor(i / CATEGORIES.length)
    return {
      no: i + 1,
      id: refId('category', i + 1),
      name: round ? `${name} ${round + 1}` : name,
      slug: round ? `${slug}-${round + 1}` : slug,
      icon,
      description: `Kumpulan acara ${name.toLowerCase()} di seluruh Indonesia.`,
    }
  })
}

function cityRows(n: number) {
  return Array.from({ length: n }, (_, i) => {
    const [name, province] = CITIES[i % CITIES.length]
    const round = Math.floor(i / CITIES.length)
    return {
      no: i + 1,
      id: refId('city', i + 1),
      name: round ? `${name} ${round + 1}` : name,
      slug: round ? `${slugify(name)}-${round + 1}` : slugify(name),
      province,
      time_zone: timeZoneOf(province),
    }
  })
}

const TAG_BASES = [
  'Jazz',
  'Rock',
  'Pop',
  'Dangdut',
  'Indie',
  'Akustik',
  'Keroncong',
  'Gamelan',
  'Lari',
  'Sepeda',
  'Yoga',
  'Silat',
  'Futsal',
  'Fotografi',
  'Lukisan',
  'Desain',
  'Kopi',
  'Kuliner',
  'Vegan',
  'Startup',
  'AI',
  'Web',
  'Data',
  'Batik',
  'Wayang',
  'Tari',
  'Teater',
  'Beasiswa',
  'Karier',
  'UMKM',
  'Investasi',
  'Relawan',
  'Lingkungan',
  'Film',
  'Animasi',
  'Keluarga',
  'Anak',
  'Literasi',
  'Komik',
  'Esports',
]
const TAG_MODIFIERS = [
  '',
  'Pemula',
  'Lanjutan',
  'Kampus',
  'Komunitas',
  'Gratis',
  'Malam',
  'Pagi',
  'Akhir Pekan',
  'Online',
  'Outdoor',
  'Remaja',
  'Profesional',
  'Nusantara',
  'Lokal',
  'Internasional',
  'Kreatif',
  'Santai',
  'Kompetisi',
  'Kelas',
  'Festival',
  'Jakarta',
  'Bandung',
  'Bali',
  'Jogja',
]

function tagRows(n: number) {
  const rows: { no: number; id: string; name: string; slug: string }[] = []
  for (let round = 0; rows.length < n; round++)
    for (const modifier of TAG_MODIFIERS)
      for (const base of TAG_BASES) {
        if (rows.length >= n) break
        const name = [base, modifier, round ? String(round + 1) : ''].filter(Boolean).join(' ')
        rows.push({ no: rows.length + 1, id: refId('tag', rows.length + 1), name, slug: slugify(name) })
      }
  return rows
}

// ------------------------------------------------------------------ SQL

const sqlArray = (values: string[]) => `ARRAY[${values.map((v) => `'${v.replace(/'/g, "''")}'`).join(',')}]`

const KINDS = [
  'Konser',
  'Festival',
  'Seminar',
  'Workshop',
  'Pameran',
  'Lomba',
  'Bazar',
  'Pentas',
  'Webinar',
  'Talkshow',
  'Meetup',
  'Turnamen',
  'Kelas',
  'Pelatihan',
  'Expo',
  'Gelar',
]
const TOPICS = [
  'Jazz',
  'Musik Indie',
  'Kopi Nusantara',
  'Batik',
  'Wayang Kulit',
  'Fotografi Jalanan',
  'Startup Digital',
  'Kuliner Pedas',
  'Lari Pagi',
  'Sepeda Santai',
  'Yoga',
  'Tari Tradisional',
  'Keroncong',
  'Dangdut',
  'Film Pendek',
  'Seni Rupa',
  'Kerajinan Tangan',
  'Anak Muda',
  'UMKM',
  'Literasi',
  'Puisi',
  'Komik',
  'Desain Grafis',
  'Pemrograman',
  'Kecerdasan Buatan',
  'Keuangan Keluarga',
  'Investasi Saham',
  'Kesehatan Mental',
  'Lingkungan Hidup',
  'Daur Ulang',
  'Teh',
  'Sate',
  'Rendang',
  'Gamelan',
  'Angklung',
  'Reog',
  'Pencak Silat',
  'Futsal',
  'Bulu Tangkis',
  'Catur',
  'Esports',
  'Robotik',
  'Otomotif',
  'Busana Muslim',
  'Tenun Ikat',
  'Keramik',
  'Akustik',
  'Stand Up Comedy',
]
const ADJECTIVES = [
  'Nusantara',
  'Akbar',
  'Kreatif',
  'Muda',
  'Raya',
  'Internasional',
  'Tahunan',
  'Kampus',
  'Rakyat',
  'Ceria',
  'Merdeka',
  'Bersama',
]
const VENUES = [
  'Gedung Serbaguna',
  'Balai Kota',
  'Taman Budaya',
  'Convention Center',
  'Aula Universitas',
  'Lapangan Merdeka',
  'GOR',
  'Hotel Grand',
  'Mall',
  'Kafe Kopi',
  'Alun-alun',
  'Pendopo',
]
const ORG_PREFIXES = [
  'EO',
  'Komunitas',
  'Dinas Pariwisata',
  'Yayasan',
  'Studio',
  'Kolektif',
  'Himpunan Mahasiswa',
  'Asosiasi',
  'Sanggar',
  'Paguyuban',
]
const ORG_NAMES = [
  'Nusantara',
  'Cahaya',
  'Harmoni',
  'Swara',
  'Bumi Pertiwi',
  'Lentera',
  'Pelangi',
  'Garuda',
  'Merah Putih',
  'Mandiri',
  'Sejahtera',
  'Kencana',
  'Rajawali',
  'Senja',
  'Samudra',
  'Cendana',
  'Melati',
  'Bintang Timur',
  'Karya Muda',
  'Semesta',
]
const SENTENCES = [
  'Acara ini terbuka untuk umum dan ramah keluarga.',
  'Tersedia area parkir yang luas dan akses transportasi umum.',
  'Peserta akan mendapatkan sertifikat dan merchandise eksklusif.',
  'Jangan lewatkan penampilan spesial dari musisi lokal.',
  'Tiket terbatas, segera amankan tempatmu.',
  'Ada bazar kuliner khas daerah dengan harga terjangkau.',
  'Pembicara berpengalaman akan berbagi wawasan dan tips praktis.',
  'Kegiatan ini didukung oleh pemerintah kota dan komunitas setempat.',
  'Bawa botol minum sendiri untuk mengurangi sampah plastik.',
  'Anak-anak di bawah lima tahun masuk gratis.',
  'Sesi tanya jawab dan jejaring setelah acara utama.',
  'Dokumentasi acara akan dibagikan melalui media sosial penyelenggara.',
  'Pendaftaran ulang dibuka satu jam sebelum acara dimulai.',
  'Gunakan pakaian yang nyaman dan sopan.',
  'Protokol kesehatan tetap diterapkan selama acara berlangsung.',
  'Tersedia penerjemah bahasa isyarat untuk teman tuli.',
  'Pemenang lomba akan mendapatkan hadiah jutaan rupiah.',
  'Suasana malam akan dimeriahkan dengan pertunjukan cahaya.',
  'Acara berlangsung di ruang terbuka, siapkan payung jika hujan.',
  'Kuota peserta terbatas untuk menjaga kenyamanan bersama.',
]
const AUTHORS = [
  'Rina Wulandari',
  'Budi Santoso',
  'Dewi Lestari',
  'Agus Pratama',
  'Siti Nurhaliza',
  'Yoga Permana',
  'Putri Maharani',
  'Andi Saputra',
  'Nadia Rahmawati',
  'Fajar Nugroho',
  'Intan Permatasari',
  'Rizky Hidayat',
]
const NEWS_CATEGORIES = ['Tips', 'Liputan', 'Review', 'Wawancara', 'Panduan', 'Info']

const pick = (list: string[], r: string) => `(${sqlArray(list)})[1 + floor(${r} * ${list.length})::int]`

// r(i, k): a deterministic pseudo-random number in [0, 1) for row i and stream k.
const FUNCTIONS = `
CREATE OR REPLACE FUNCTION pg_temp.r(i bigint, k bigint) RETURNS double precision
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT (hashint8extended(i, k) & 2147483647)::double precision / 2147483648.0 $$;
CREATE OR REPLACE FUNCTION pg_temp.slug(t text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT trim(both '-' from regexp_replace(lower(replace(t, '&', ' dan ')), '[^a-z0-9]+', '-', 'g')) $$;
`

// A UUID v7-shaped id whose time prefix is `ms` (ids then sort like created_at) and whose other
// bits come from md5(key). Written inline (no SQL function: a non-inlined function call costs
// ~90 us per row, more than everything else together).
const UUID_PATTERN = `'^(.{8})(.{4})(.{3})(.{3})(.{12}).*$', '\\1-\\2-7\\3-8\\4-\\5'`
const uidSql = (msExpr: string, keyExpr: string) =>
  `regexp_replace(lpad(to_hex((${msExpr})::bigint), 12, '0') || md5(${keyExpr}), ${UUID_PATTERN})`
function uid(key: string, ms: number): string {
  const hex = ms.toString(16).padStart(12, '0') + new Bun.CryptoHasher('md5').update(key).digest('hex')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7${hex.slice(12, 15)}-8${hex.slice(15, 18)}-${hex.slice(18, 30)}`
}

// fixed creation time of the reference rows (categories, cities, tags)
const REF_MS = Date.UTC(2023, 0, 1)
const refId = (kind: string, no: number) => uid(`${kind}-${no}`, REF_MS + no)
/** SQL: the id of reference row number `noExpr` (1-based), from an inline array. */
const refIdSql = (kind: string, count: number, noExpr: string) =>
  `(${sqlArray(Array.from({ length: count }, (_, i) => refId(kind, i + 1)))})[${noExpr}]`

function referenceSql(): string[] {
  return [
    `INSERT INTO categories (id, name, slug, description, icon, image_url, is_active, sort_order, created_at)
     SELECT id, name, slug, description, icon,
            '/media/bench/categories/' || slug || '.jpg', true, no * 10, timestamptz '2023-01-01 00:00:00+00'
     FROM jsonb_to_recordset($1::jsonb) AS c(id text, name text, slug text, icon text, description text, no int)`,
    `INSERT INTO cities (id, name, slug, province, country, time_zone, image_url, created_at)
     SELECT id, name, slug, province, 'Indonesia', time_zone,
            '/media/bench/cities/' || slug || '.jpg', timestamptz '2023-01-01 00:00:00+00'
     FROM jsonb_to_recordset($1::jsonb) AS c(id text, name text, slug text, province text, time_zone text)`,
    `INSERT INTO tags (id, name, slug, created_at)
     SELECT id, name, slug, timestamptz '2023-01-01 00:00:00+00'
     FROM jsonb_to_recordset($1::jsonb) AS t(id text, name text, slug text)`,
  ]
}

/** SQL: latitude (axis 0) or longitude (axis 1) of city number `noExpr`'s centre. */
const centreSql = (count: number, axis: 0 | 1, noExpr: string) =>
  `(ARRAY[${Array.from({ length: count }, (_, i) => {
    const [name] = CITIES[i % CITIES.length]
    const centre = CITY_CENTRES[name]
    if (!centre) throw new Error(`bench:data: no centre for ${name}`)
    return centre[axis]
  }).join(',')}]::float8[])[${noExpr}]`

// part/parts: the rows i with i % parts = part (two connections insert half each; the
// generated search columns make the insert CPU-bound, so this uses both cores)
function eventsSql(n: number, nCategories: number, nCities: number, part: number, parts: number) {
  // created_at: one event every 10 minutes (plus jitter) ending now, so the newest are recent
  const step = 600
  return `
INSERT INTO events (id, title, slug, short_description, description, poster_url, gallery, start_date, end_date,
                    start_time, end_time, event_type, venue_name, venue_address, latitude, longitude, city_id,
                    category_id, organizer_name, contact_name, contact_phone, contact_email, ticket_url, is_free,
                    ticket_price_min, ticket_price_max, status, created_at, updated_at, published_at)
SELECT
  ${uidSql('extract(epoch FROM b.created_at) * 1000', "'event-' || b.i")},
  b.title,
  b.slug_base || CASE WHEN b.dup > 1 THEN '-' || b.dup ELSE '' END,
  b.short,
  '<p>' || b.short || '</p><p>' || b.title || ' diselenggarakan oleh <strong>' || b.organizer || '</strong> di '
    || b.venue || ', ' || coalesce(b.city_name, 'ruang virtual') || '. ' || b.s1 || ' ' || b.s2
    || '</p><ul><li>' || b.s3 || '</li><li>Pintu dibuka 1 jam sebelum acara.</li></ul>',
  '/media/bench/events/' || b.i || '.webp',
  CASE WHEN b.r_gallery < 0.3 THEN jsonb_build_array(
         jsonb_build_object('url', '/media/bench/events/' || b.i || '-1.webp', 'caption', 'Suasana ' || b.title),
         jsonb_build_object('url', '/media/bench/events/' || b.i || '-2.webp', 'caption', NULL))
       ELSE '[]'::jsonb END,
  b.start_date,
  b.start_date + b.extra_days,
  b.start_time,
  CASE WHEN b.r_end < 0.8 THEN b.start_time + make_interval(hours => 1 + floor(b.r_end * 3.75)::int) END,
  b.event_type::event_type,
  b.venue,
  CASE WHEN b.city_name IS NULL THEN '' ELSE 'Jl. Merdeka No. ' || (1 + b.i % 200) || ', ' || b.city_name || ', ' || b.province END,
  -- venues within ~3 km of their city's centre; 8% not on the map (yet)
  CASE WHEN b.city_name IS NOT NULL AND b.r_lat >= 0.08 THEN round((b.centre_lat + (b.r_lat - 0.54) * 0.06)::numeric, 5)::float8 END,
  CASE WHEN b.city_name IS NOT NULL AND b.r_lat >= 0.08 THEN round((b.centre_lng + (b.r_lon - 0.5) * 0.06)::numeric, 5)::float8 END,
  b.city_id,
  b.category_id,
  b.organizer,
  'Panitia ' || b.organizer,
  '+62812' || lpad((hashint8extended(b.i, 99) & 8388607)::text, 7, '0'),
  'info@' || replace(pg_temp.slug(b.organizer), '-', '') || '.id',
  CASE WHEN b.is_free THEN '' ELSE 'https://tiket.example.id/' || b.slug_base END,
  b.is_free,
  b.price_min,
  CASE WHEN b.is_free THEN 0 ELSE b.price_min + b.price_spread END,
  b.status::event_status,
  b.created_at,
  b.created_at,
  CASE WHEN b.status = 'published' THEN b.created_at + interval '1 hour' END
FROM (
  SELECT g.*,
         pg_temp.slug(g.title) AS slug_base,
         row_number() OVER (PARTITION BY g.title ORDER BY g.i) AS dup,
         format('%s %s %s di %s.', g.kind, lower(g.topic), lower(g.adj),
                CASE WHEN g.city_name IS NULL THEN 'ruang virtual' ELSE g.city_name END) || ' ' || g.s0 AS short
  FROM (
    SELECT x.*,
           format('%s %s %s %s', x.kind, x.topic, x.adj, coalesce(ci.name, 'Online')) AS title,
           ci.id AS city_id, ci.name AS city_name, ci.province,
           ${centreSql(nCities, 0, 'x.city_no')} AS centre_lat,
           ${centreSql(nCities, 1, 'x.city_no')} AS centre_lng,
           -- 55% on the weekend: moved to the Saturday on or after (multi-day ones from the Friday)
           CASE WHEN x.r_weekend < 0.55
                THEN x.start_base + (6 - extract(isodow FROM x.start_base)::int + 7) % 7 - CASE WHEN x.extra_days > 0 THEN 1 ELSE 0 END
                ELSE x.start_base END AS start_date,
           ca.id AS category_id,
           CASE WHEN x.event_type = 'online' THEN x.online_venue ELSE x.venue_base || ' ' || ci.name END AS venue
    FROM (
      SELECT i,
             CASE WHEN pg_temp.r(i, 1) < 0.5 THEN 1 + floor(pg_temp.r(i, 2) * 10)
                  ELSE 11 + floor(pg_temp.r(i, 2) * ${nCities - 10}) END::int AS city_no,
             (1 + floor(pg_temp.r(i, 3) * ${nCategories}))::int AS category_no,
             ${pick(KINDS, 'pg_temp.r(i, 4)')} AS kind,
             ${pick(TOPICS, 'pg_temp.r(i, 5)')} AS topic,
             ${pick(ADJECTIVES, 'pg_temp.r(i, 6)')} AS adj,
             ${pick(VENUES, 'pg_temp.r(i, 7)')} AS venue_base,
             CASE WHEN pg_temp.r(i, 7) < 0.5 THEN 'Online (Zoom)' ELSE 'YouTube Live' END AS online_venue,
             ${pick(ORG_PREFIXES, 'pg_temp.r(i, 8)')} || ' ' || ${pick(ORG_NAMES, 'pg_temp.r(i, 9)')} AS organizer,
             ${pick(SENTENCES, 'pg_temp.r(i, 10)')} AS s0,
             ${pick(SENTENCES, 'pg_temp.r(i, 11)')} AS s1,
             ${pick(SENTENCES, 'pg_temp.r(i, 12)')} AS s2,
             ${pick(SENTENCES, 'pg_temp.r(i, 13)')} AS s3,
             -- from last month to next year
             current_date - 30 + floor(pg_temp.r(i, 14) * 395)::int AS start_base,
             pg_temp.r(i, 27) AS r_weekend,
             CASE WHEN pg_temp.r(i, 15) < 0.7 THEN 0 ELSE 1 + floor((pg_temp.r(i, 15) - 0.7) * 10)::int END AS extra_days,
             time '08:00' + floor(pg_temp.r(i, 16) * 26) * interval '30 minutes' AS start_time,
             pg_temp.r(i, 17) AS r_end,
             CASE WHEN pg_temp.r(i, 18) < 0.7 THEN 'offline' WHEN pg_temp.r(i, 18) < 0.9 THEN 'online' ELSE 'hybrid' END AS event_type,
             pg_temp.r(i, 19) < 0.2 AS is_free,
             CASE WHEN pg_temp.r(i, 19) < 0.2 THEN 0 ELSE 25000 * (1 + floor(pg_temp.r(i, 20) * 19)::int) END AS price_min,
             25000 * floor(pg_temp.r(i, 21) * 10)::int AS price_spread,
             CASE WHEN pg_temp.r(i, 22) < 0.90 THEN 'published' WHEN pg_temp.r(i, 22) < 0.95 THEN 'pending'
                  WHEN pg_temp.r(i, 22) < 0.98 THEN 'draft' ELSE 'rejected' END AS status,
             pg_temp.r(i, 23) AS r_gallery,
             pg_temp.r(i, 24) AS r_lat,
             pg_temp.r(i, 25) AS r_lon,
             date_trunc('second', now()) - make_interval(secs => (${n} - i) * ${step} + floor(pg_temp.r(i, 26) * ${step - 1}))
               AS created_at
      FROM generate_series(1, ${n}) AS i
    ) x
    -- online events have no city (as in the demo seed); the others take the drawn one
    LEFT JOIN cities ci ON x.event_type <> 'online' AND ci.id = ${refIdSql('city', nCities, 'x.city_no')}
    JOIN categories ca ON ca.id = ${refIdSql('category', nCategories, 'x.category_no')}
  ) g
) b
WHERE b.i % ${parts} = ${part}
ORDER BY b.i;
`
}

function eventTagsSql(nTags: number, part: number, parts: number) {
  // 1..5 tags per event (3 on average), popular tags (low numbers) drawn more often
  return `
INSERT INTO event_tags (event_id, tag_id)
SELECT DISTINCT e.id, ${refIdSql('tag', nTags, 't.no')}
FROM (SELECT id, row_number() OVER (ORDER BY created_at, id) AS i FROM events) e
CROSS JOIN LATERAL (
  SELECT (1 + floor(pg_temp.r(e.i * 8 + k, 31) ^ 2 * ${nTags}))::int AS no
  FROM generate_series(1, 5) AS k
  WHERE k <= 1 + floor(pg_temp.r(e.i, 30) * 5)
) t
WHERE e.i % ${parts} = ${part};
`
}

function newsSql(n: number, nCities: number) {
  const step = 4 * 3600
  return `
INSERT INTO news_articles (id, title, slug, excerpt, content, cover_url, category, author_name, is_featured, status,
                           published_at, created_at, updated_at)
SELECT ${uidSql('extract(epoch FROM b.published_at) * 1000', "'news-' || b.i")},
       b.title,
       b.slug_base || CASE WHEN b.dup > 1 THEN '-' || b.dup ELSE '' END,
       b.title || ': rangkuman singkat dari redaksi. ' || b.s1,
       '<p>' || b.title || '.</p><h2>Yang perlu diketahui</h2><p>' || b.s1 || ' ' || b.s2
         || '</p><p>Redaksi merangkum hal penting seputar ' || lower(b.kind) || ' ' || lower(b.topic) || ' di ' || b.city
         || '. Simak juga agenda event terdekat di kota Anda.</p><blockquote>' || b.s3 || '</blockquote>',
       '/media/bench/news/' || b.i || '.webp',
       b.category, b.author, b.featured, b.status::article_status,
       b.published_at, b.published_at, b.published_at
FROM (
  SELECT g.*, pg_temp.slug(g.title) AS slug_base, row_number() OVER (PARTITION BY g.title ORDER BY g.i) AS dup
  FROM (
    SELECT x.*,
           CASE x.category
             WHEN 'Tips' THEN format('%s Tips Menikmati %s %s', 3 + floor(pg_temp.r(x.i, 109) * 8), x.kind, x.topic)
             WHEN 'Liputan' THEN format('Liputan: %s %s di %s Sukses Digelar', x.kind, x.topic, x.city)
             WHEN 'Review' THEN format('Review %s %s di %s', x.kind, x.topic, x.city)
             WHEN 'Wawancara' THEN format('Wawancara dengan Penyelenggara %s %s %s', x.kind, x.topic, x.city)
             WHEN 'Panduan' THEN format('Panduan Lengkap %s %s untuk Pemula', x.kind, x.topic)
             ELSE format('Jadwal %s %s Bulan Ini di %s', x.kind, x.topic, x.city)
           END AS title
    FROM (
      SELECT i,
             ${pick(NEWS_CATEGORIES, 'pg_temp.r(i, 101)')} AS category,
             ${pick(KINDS, 'pg_temp.r(i, 102)')} AS kind,
             ${pick(TOPICS, 'pg_temp.r(i, 103)')} AS topic,
             ci.name AS city,
             ${pick(AUTHORS, 'pg_temp.r(i, 104)')} AS author,
             ${pick(SENTENCES, 'pg_temp.r(i, 105)')} AS s1,
             ${pick(SENTENCES, 'pg_temp.r(i, 106)')} AS s2,
             ${pick(SENTENCES, 'pg_temp.r(i, 107)')} AS s3,
             pg_temp.r(i, 108) < 0.05 AS featured,
             CASE WHEN pg_temp.r(i, 110) < 0.95 THEN 'published' ELSE 'draft' END AS status,
             -- newest first every 4 hours; 1% scheduled in the coming weeks (not public yet)
             CASE WHEN pg_temp.r(i, 111) < 0.01 THEN date_trunc('second', now()) + make_interval(days => 1 + floor(pg_temp.r(i, 112) * 30)::int)
                  ELSE date_trunc('second', now()) - make_interval(secs => (${n} - i) * ${step} + floor(pg_temp.r(i, 113) * ${step - 1}) + 600)
             END AS published_at
      FROM generate_series(1, ${n}) AS i
      JOIN cities ci ON ci.id = ${refIdSql('city', nCities, `1 + floor(pg_temp.r(i, 100) * ${nCities})::int`)}
    ) x
  ) g
) b
ORDER BY b.i;
`
}

// ------------------------------------------------------------------ run

const log = (line: string) => {
  if (!args.quiet) console.log(line)
}
const t0 = performance.now()
const timings: [string, number][] = []
async function step<T>(name: string, fn: () => Promise<T>): Promise<T> {
  const start = performance.now()
  const result = await fn()
  const ms = performance.now() - start
  timings.push([name, ms])
  log(`  ${name.padEnd(34)} ${(ms / 1000).toFixed(2).padStart(7)} s`)
  return result
}

log(
  `bench:data: ${counts.events} events, ${counts.news} news, ${counts.tags} tags, ${counts.categories} categories, ${counts.cities} cities -> ${redact(url)}`,
)

function redact(u: string) {
  try {
    const parsed = new URL(u)
    if (parsed.password) parsed.password = '***'
    return parsed.toString()
  } catch {
    return '(DATABASE_URL)'
  }
}

await step('migrate', async () => {
  const database = await createDb(url)
  try {
    await migrateDb(database)
  } finally {
    await database.close()
  }
})

// two connections: bulk inserts and index builds run two at a time (2 cores). Each must stay the
// same session for the whole load: the settings below (triggers off above all) are per session,
// and a connection closed while idle (one half of a step finishing seconds before the other)
// came back with the triggers on, so the search copy's fill ran its row trigger 90k times in one
// transaction (stuck for over 13 minutes at 100k events).
const oneSession = { max: 1, onnotice: () => {}, connect_timeout: 10, idle_timeout: 0, max_lifetime: 0 }
const sql = postgres(url, oneSession)
const sql2 = postgres(url, oneSession)
const TABLES = ['events', 'event_tags', 'event_search', 'news_articles']

type Ddl = { name: string; table: string; def: string }
let dropped: { indexes: Ddl[]; foreignKeys: Ddl[] } = { indexes: [], foreignKeys: [] }

/** Runs the queries on both connections, two at a time, in order. */
async function twoAtATime(queries: string[]) {
  const queue = [...queries]
  const worker = async (conn: postgres.Sql) => {
    for (let q = queue.shift(); q; q = queue.shift()) await conn.unsafe(q)
  }
  await Promise.all([worker(sql), worker(sql2)])
}

const restoreIndexes = (ddl: Ddl[]) =>
  twoAtATime(ddl.map((d) => d.def.replace(/^CREATE (UNIQUE )?INDEX /, 'CREATE $1INDEX IF NOT EXISTS ')))
const restoreForeignKeys = async (ddl: Ddl[]) => {
  for (const fk of ddl) {
    const [exists] = await sql`select 1 from pg_constraint where conname = ${fk.name} and conrelid = ${fk.table}::regclass`
    if (!exists) await sql.unsafe(`ALTER TABLE "${fk.table}" ADD CONSTRAINT "${fk.name}" ${fk.def}`)
  }
}

try {
  const session = `SET synchronous_commit = off; SET maintenance_work_mem = '256MB'; SET work_mem = '64MB'; SET statement_timeout = 0;`
  await sql.unsafe(session)
  await sql2.unsafe(session)

  // Secondary indexes (not those behind a primary key or unique constraint) and foreign keys of
  // the bulk tables: dropped for the load, re-created from their own definitions afterwards.
  const indexes = await sql<Ddl[]>`
    select i.relname as name, t.relname as "table", pg_get_indexdef(x.indexrelid) as def
    from pg_index x
    join pg_class i on i.oid = x.indexrelid
    join pg_class t on t.oid = x.indrelid
    where t.relname in ${sql(TABLES)} and t.relnamespace = 'public'::regnamespace
      and not exists (select 1 from pg_constraint c where c.conindid = x.indexrelid)
    order by pg_relation_size(x.indrelid) desc, i.relname`
  const foreignKeys = await sql<Ddl[]>`
    select c.conname as name, t.relname as "table", pg_get_constraintdef(c.oid) as def
    from pg_constraint c join pg_class t on t.oid = c.conrelid
    where c.contype = 'f' and t.relname in ${sql(TABLES)} and t.relnamespace = 'public'::regnamespace
    order by t.relname, c.conname`

  await step('truncate, drop indexes + foreign keys', async () => {
    await sql.begin(async (tx) => {
      // event_search, event_title_words, event_tag_order and event_cards are emptied by TRUNCATE
      // triggers of events (migrations 0021, 0025, 0026, 0032)
      await tx.unsafe(
        'TRUNCATE event_tags, events, tags, categories, cities, news_articles, moderation_log RESTART IDENTITY CASCADE',
      )
      for (const fk of foreignKeys) await tx.unsafe(`ALTER TABLE "${fk.table}" DROP CONSTRAINT IF EXISTS "${fk.name}"`)
      for (const index of indexes) await tx.unsafe(`DROP INDEX IF EXISTS "${index.name}"`)
    })
    dropped = { indexes, foreignKeys }
  })

  await sql.unsafe(FUNCTIONS)
  await sql2.unsafe(FUNCTIONS)
  // Row and statement triggers off for the load (search documents, typo dictionary, change
  // notifications, the search copy and its lexemes, the published counts, the title words, the tag
  // copy, the cards: migrations 0007, 0008, 0016, 0021, 0022, 0025, 0026, 0027, 0032): derived once, set-based, after the load.
  // A bench database is loaded as a superuser, who may do this.
  await sql.unsafe('SET session_replication_role = replica')
  await sql2.unsafe('SET session_replication_role = replica')
  await step('categories, cities, tags', async () => {
    const rows = [categoryRows(counts.categories), cityRows(counts.cities), tagRows(counts.tags)]
    const statements = referenceSql()
    for (let i = 0; i < statements.length; i++) await sql.unsafe(statements[i], [rows[i] as never])
  })
  const [eventCount, newsCount] = await step(`events (${counts.events}) + news (${counts.news})`, async () => {
    const [a, [b, news]] = await Promise.all([
      sql.unsafe(eventsSql(counts.events, counts.categories, counts.cities, 0, 2)),
      Promise.all([
        sql2.unsafe(eventsSql(counts.events, counts.categories, counts.cities, 1, 2)),
        sql2.unsafe(newsSql(counts.news, counts.cities)),
      ]),
    ])
    return [a.count + b.count, news.count]
  })
  const linkCount = await step('event_tags', async () => {
    const [a, b] = await Promise.all([sql.unsafe(eventTagsSql(counts.tags, 0, 2)), sql2.unsafe(eventTagsSql(counts.tags, 1, 2))])
    return a.count + b.count
  })

  await step('search documents + word dictionary (set-based)', async () => {
    await Promise.all([
      sql.unsafe('UPDATE events SET search_document = event_search_document(events) WHERE hashtext(id) & 1 = 0'),
      sql2.unsafe('UPDATE events SET search_document = event_search_document(events) WHERE hashtext(id) & 1 = 1'),
    ])
    // the narrow copy a public search reads (migrations 0021, 0023), kept by row triggers otherwise
    await sql.unsafe('SELECT event_search_fill()')
    // the lexemes of that copy, which a search's prefixes are rewritten into (migration 0027)
    await sql.unsafe('SELECT search_lexemes_fill()')
    // the published counts per category, city, format and price (migration 0022), likewise
    await sql.unsafe('SELECT event_counts_fill()')
    // each word of each published title, for suggestions (migration 0025), and each tag of each
    // published event with its list keys, for lists by tag (migration 0026), likewise
    await sql.unsafe('SELECT event_title_words_fill()')
    await sql.unsafe('SELECT event_tag_order_fill()')
    // the list card of each published event (migration 0032), likewise
    await sql.unsafe('SELECT event_cards_fill()')
    await sql.unsafe(`
      INSERT INTO search_words (word)
      SELECT DISTINCT w FROM (
        SELECT search_text AS t FROM events UNION ALL SELECT venue_name FROM events
        UNION ALL SELECT name FROM cities UNION ALL SELECT province FROM cities
        UNION ALL SELECT name FROM categories UNION ALL SELECT name FROM tags
      ) s, regexp_split_to_table(immutable_unaccent(lower(s.t)), '[^[:alnum:]]+') AS w
      WHERE length(w) BETWEEN 2 AND 40
      ON CONFLICT DO NOTHING`)
    await sql.unsafe('SET session_replication_role = DEFAULT')
    await sql2.unsafe('SET session_replication_role = DEFAULT')
    // the triggers did not announce the load: one version bump drops every cached answer
    await sql.unsafe('SELECT notify_public_change(NULL)')
  })

  await step(`re-create ${indexes.length} indexes, ${foreignKeys.length} foreign keys`, async () => {
    await restoreIndexes(indexes)
    await restoreForeignKeys(foreignKeys)
    dropped = { indexes: [], foreignKeys: [] }
  })

  // VACUUM until the visibility map of events is settled (see pg_settle in the peer's lib.sh)
  const settled = await step('vacuum (analyze) until settled', async () => {
    for (let attempt = 1; attempt <= 20; attempt++) {
      // every table: the derived ones (event_counts, event_tag_order, event_title_words, ...) were
      // filled without triggers too, and with autovacuum off (as on the shared development
      // server) they had no statistics and no visibility map: a tag's count read 694 heap rows
      // of event_tag_order (1.8-6.4 ms) where an index-only scan reads none
      await sql.unsafe('VACUUM (ANALYZE)')
      const [row] = await sql<{ pages: number; visible: number }[]>`
        select relpages as pages, relallvisible as visible from pg_class where oid = 'events'::regclass`
      if (row.visible * 100 >= row.pages * 99) return { ...row, attempt }
      await Bun.sleep(1000)
    }
    const [row] = await sql<{ pages: number; visible: number }[]>`
      select relpages as pages, relallvisible as visible from pg_class where oid = 'events'::regclass`
    console.warn(`bench:data: warning: only ${row.visible} of ${row.pages} events pages are all-visible`)
    return { ...row, attempt: 20 }
  })

  const [{ events_size }] = await sql<
    { events_size: string }[]
  >`select pg_size_pretty(pg_total_relation_size('events')) as events_size`
  const stats = { ...(await datasetCounts(sql)), events_size }
  log(
    `done in ${((performance.now() - t0) / 1000).toFixed(1)} s: ${stats.events} events (${stats.published} published, ` +
      `${eventCount} inserted), ${stats.event_tags} event_tags (${linkCount}), ${stats.tags} tags, ${stats.categories} categories, ` +
      `${stats.cities} cities, ${stats.news} news (${newsCount}); events table + indexes ${stats.events_size}; ` +
      `visibility map ${settled.visible}/${settled.pages} pages after ${settled.attempt} VACUUM(s)`,
  )
} catch (error) {
  // never leave the schema without its indexes and constraints: put back whatever was dropped
  if (dropped.indexes.length || dropped.foreignKeys.length) {
    console.error(`bench:data: failed, re-creating the dropped indexes and foreign keys`)
    await Promise.all([sql.unsafe('ROLLBACK').catch(() => {}), sql2.unsafe('ROLLBACK').catch(() => {})])
    await restoreIndexes(dropped.indexes).catch((e) => console.error(`  indexes: ${e.message}`))
    await restoreForeignKeys(dropped.foreignKeys).catch((e) => console.error(`  foreign keys: ${e.message}`))
  }
  throw error
} finally {
  await Promise.all([sql.end({ timeout: 5 }), sql2.end({ timeout: 5 })])
}
