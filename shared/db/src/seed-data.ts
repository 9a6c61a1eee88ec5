// Demo catalogue: realistic Indonesian content for `bun start` and the tests.
// Placeholder images live under /media/demo/ (no files are shipped for them).

export const demoCategories = [
  { slug: 'musik', name: 'Musik', icon: 'music', description: 'Konser, festival musik, dan pertunjukan live.' },
  { slug: 'workshop', name: 'Workshop', icon: 'tools', description: 'Kelas praktik dan pelatihan singkat.' },
  { slug: 'olahraga', name: 'Olahraga', icon: 'running', description: 'Lari, sepeda, dan kompetisi olahraga.' },
  { slug: 'pameran', name: 'Pameran', icon: 'image', description: 'Pameran seni, foto, dan industri kreatif.' },
  { slug: 'kuliner', name: 'Kuliner', icon: 'utensils', description: 'Festival makanan dan bazar kuliner nusantara.' },
  { slug: 'teknologi', name: 'Teknologi', icon: 'cpu', description: 'Konferensi, meetup, dan hackathon teknologi.' },
  { slug: 'seni-budaya', name: 'Seni & Budaya', icon: 'masks', description: 'Tari, wayang, teater, dan tradisi daerah.' },
  { slug: 'pendidikan', name: 'Pendidikan', icon: 'book', description: 'Seminar, expo kampus, dan beasiswa.' },
  { slug: 'bisnis', name: 'Bisnis', icon: 'briefcase', description: 'Startup, UMKM, dan jejaring bisnis.' },
  { slug: 'komunitas', name: 'Komunitas', icon: 'users', description: 'Kegiatan sosial dan kumpul komunitas.' },
  { slug: 'film', name: 'Film', icon: 'film', description: 'Pemutaran film dan festival sinema.' },
  { slug: 'anak-keluarga', name: 'Anak & Keluarga', icon: 'baby', description: 'Acara ramah anak untuk seluruh keluarga.' },
  { slug: 'religi', name: 'Religi', icon: 'moon', description: 'Kajian dan perayaan hari besar keagamaan.', isActive: false },
]

type CitySeed = { slug: string; name: string; province: string; timeZone: string }
const wib = 'Asia/Jakarta'
const wita = 'Asia/Makassar'
const wit = 'Asia/Jayapura'
export const demoCities: CitySeed[] = [
  { slug: 'jakarta-selatan', name: 'Jakarta Selatan', province: 'DKI Jakarta', timeZone: wib },
  { slug: 'jakarta-pusat', name: 'Jakarta Pusat', province: 'DKI Jakarta', timeZone: wib },
  { slug: 'bandung', name: 'Bandung', province: 'Jawa Barat', timeZone: wib },
  { slug: 'bogor', name: 'Bogor', province: 'Jawa Barat', timeZone: wib },
  { slug: 'bekasi', name: 'Bekasi', province: 'Jawa Barat', timeZone: wib },
  { slug: 'tangerang', name: 'Tangerang', province: 'Banten', timeZone: wib },
  { slug: 'semarang', name: 'Semarang', province: 'Jawa Tengah', timeZone: wib },
  { slug: 'solo', name: 'Surakarta', province: 'Jawa Tengah', timeZone: wib },
  { slug: 'yogyakarta', name: 'Yogyakarta', province: 'DI Yogyakarta', timeZone: wib },
  { slug: 'surabaya', name: 'Surabaya', province: 'Jawa Timur', timeZone: wib },
  { slug: 'malang', name: 'Malang', province: 'Jawa Timur', timeZone: wib },
  { slug: 'medan', name: 'Medan', province: 'Sumatera Utara', timeZone: wib },
  { slug: 'padang', name: 'Padang', province: 'Sumatera Barat', timeZone: wib },
  { slug: 'palembang', name: 'Palembang', province: 'Sumatera Selatan', timeZone: wib },
  { slug: 'pekanbaru', name: 'Pekanbaru', province: 'Riau', timeZone: wib },
  { slug: 'pontianak', name: 'Pontianak', province: 'Kalimantan Barat', timeZone: wib },
  { slug: 'banda-aceh', name: 'Banda Aceh', province: 'Aceh', timeZone: wib },
  { slug: 'denpasar', name: 'Denpasar', province: 'Bali', timeZone: wita },
  { slug: 'mataram', name: 'Mataram', province: 'Nusa Tenggara Barat', timeZone: wita },
  { slug: 'makassar', name: 'Makassar', province: 'Sulawesi Selatan', timeZone: wita },
  { slug: 'manado', name: 'Manado', province: 'Sulawesi Utara', timeZone: wita },
  { slug: 'balikpapan', name: 'Balikpapan', province: 'Kalimantan Timur', timeZone: wita },
  { slug: 'kupang', name: 'Kupang', province: 'Nusa Tenggara Timur', timeZone: wita },
  { slug: 'jayapura', name: 'Jayapura', province: 'Papua', timeZone: wit },
  { slug: 'ambon', name: 'Ambon', province: 'Maluku', timeZone: wit },
  { slug: 'sorong', name: 'Sorong', province: 'Papua Barat Daya', timeZone: wit },
]

export const demoTags = [
  'Jazz', 'Rock', 'Pop', 'Dangdut', 'Indie', 'Elektronik', 'Akustik', 'Orkestra',
  'Lari', 'Maraton', 'Sepeda', 'Yoga', 'Fotografi', 'Lukisan', 'Desain', 'Kopi',
  'Street Food', 'Vegan', 'Startup', 'AI', 'Web', 'Mobile', 'Data', 'Keamanan Siber',
  'Batik', 'Wayang', 'Tari', 'Teater', 'Beasiswa', 'Karier', 'UMKM', 'Investasi',
  'Relawan', 'Lingkungan', 'Dokumenter', 'Animasi', 'Keluarga', 'Edukasi Anak', 'Gratis', 'Malam Minggu',
  'Kriya',
]

type EventTemplate = {
  title: string
  category: string
  organizer: string
  venue: string
  tags: string[]
  type?: 'offline' | 'online' | 'hybrid'
  price?: [number, number]
  short: string
}

// Each template is placed in a different city and date by seedDemo.
export const demoEventTemplates: EventTemplate[] = [
  { title: 'Jazz Gunung Bromo', category: 'musik', organizer: 'Jazz Gunung Indonesia', venue: 'Amfiteater Jiwa Jawa', tags: ['Jazz', 'Akustik'], price: [350000, 1500000], short: 'Jazz di ketinggian 2.000 meter dengan latar Gunung Bromo.' },
  { title: 'Festival Rock Nusantara', category: 'musik', organizer: 'Rajawali Musik', venue: 'Lapangan Gasibu', tags: ['Rock', 'Indie'], price: [150000, 450000], short: 'Band rock dari Sabang sampai Merauke dalam satu panggung.' },
  { title: 'Konser Orkestra Simfoni Kemerdekaan', category: 'musik', organizer: 'Orkes Simfoni Nusantara', venue: 'Gedung Kesenian', tags: ['Orkestra'], price: [200000, 750000], short: 'Lagu-lagu perjuangan dalam aransemen simfoni.' },
  { title: 'Malam Dangdut Rakyat', category: 'musik', organizer: 'Karang Taruna Bersatu', venue: 'Alun-alun Kota', tags: ['Dangdut', 'Gratis', 'Malam Minggu'], short: 'Goyang bersama warga di alun-alun, gratis untuk umum.' },
  { title: 'Indie Fest Sore Hari', category: 'musik', organizer: 'Kolektif Senja', venue: 'Taman Budaya', tags: ['Indie', 'Pop', 'Akustik'], price: [75000, 120000], short: 'Musisi indie lokal tampil menjelang matahari terbenam.' },
  { title: 'Pesta Musik Elektronik Pantai', category: 'musik', organizer: 'Ombak Sound', venue: 'Pantai Kuta', tags: ['Elektronik', 'Malam Minggu'], price: [250000, 900000], short: 'DJ nasional dan internasional di tepi pantai.' },
  { title: 'Workshop Fotografi Jalanan', category: 'workshop', organizer: 'Komunitas Lensa Kota', venue: 'Kota Tua', tags: ['Fotografi'], price: [100000, 100000], short: 'Belajar memotret kehidupan kota bersama fotografer senior.' },
  { title: 'Kelas Membatik untuk Pemula', category: 'workshop', organizer: 'Rumah Batik Laweyan', venue: 'Kampung Batik Laweyan', tags: ['Batik', 'Kriya'], price: [150000, 150000], short: 'Membuat batik tulis pertama Anda dari pola hingga pewarnaan.' },
  { title: 'Workshop Seduh Kopi Manual', category: 'workshop', organizer: 'Sekolah Kopi Nusantara', venue: 'Kedai Kopi Tepi Sawah', tags: ['Kopi'], price: [125000, 125000], short: 'Teknik V60, Aeropress, dan tubruk dari barista juara.' },
  { title: 'Kelas Desain Grafis dengan Figma', category: 'workshop', organizer: 'Desainer Muda Indonesia', type: 'online', venue: 'Zoom', tags: ['Desain', 'Web'], short: 'Kelas daring gratis: dari wireframe ke prototipe.' },
  { title: 'Workshop Melukis Cat Air', category: 'workshop', organizer: 'Sanggar Warna', venue: 'Galeri Sanggar Warna', tags: ['Lukisan', 'Kriya'], price: [90000, 90000], short: 'Melukis pemandangan dengan cat air dalam tiga jam.' },
  { title: 'Jakarta Night Run 10K', category: 'olahraga', organizer: 'Lari Bareng ID', venue: 'Gelora Bung Karno', tags: ['Lari'], price: [250000, 350000], short: 'Lari malam 5K dan 10K menyusuri pusat kota.' },
  { title: 'Maraton Candi Borobudur', category: 'olahraga', organizer: 'Borobudur Marathon', venue: 'Taman Lumbini', tags: ['Maraton', 'Lari'], price: [400000, 750000], short: 'Berlari melewati desa-desa di sekitar candi.' },
  { title: 'Gowes Pagi Keliling Kota', category: 'olahraga', organizer: 'Komunitas Sepeda Santai', venue: 'Balai Kota', tags: ['Sepeda', 'Gratis'], short: 'Bersepeda santai 20 km bersama komunitas, terbuka untuk umum.' },
  { title: 'Yoga di Taman Kota', category: 'olahraga', organizer: 'Yoga Nusantara', venue: 'Taman Kota', tags: ['Yoga', 'Gratis'], short: 'Sesi yoga pagi untuk semua tingkat kemampuan.' },
  { title: 'Fun Run Peduli Lingkungan', category: 'olahraga', organizer: 'Hijau Lestari', venue: 'Hutan Kota', tags: ['Lari', 'Lingkungan'], price: [100000, 100000], short: 'Setiap kilometer menanam satu pohon.' },
  { title: 'Pameran Foto Wajah Nusantara', category: 'pameran', organizer: 'Galeri Nasional', venue: 'Galeri Nasional Indonesia', tags: ['Fotografi'], short: 'Potret 300 wajah dari 34 provinsi.' },
  { title: 'Pameran Lukisan Kontemporer Muda', category: 'pameran', organizer: 'Ruang Seni Muda', venue: 'Museum Seni Rupa', tags: ['Lukisan', 'Desain'], price: [50000, 50000], short: 'Karya 40 perupa muda tentang kota dan ingatan.' },
  { title: 'Pameran Kriya dan Kerajinan Daerah', category: 'pameran', organizer: 'Dekranasda', venue: 'Balai Sidang', tags: ['Kriya', 'UMKM', 'Batik'], short: 'Tenun, anyaman, dan ukiran dari perajin daerah.' },
  { title: 'Expo Desain Interior', category: 'pameran', organizer: 'Asosiasi Desainer Interior', venue: 'Convention Center', tags: ['Desain'], price: [35000, 35000], short: 'Tren desain rumah tropis dan material lokal.' },
  { title: 'Festival Kuliner Nusantara', category: 'kuliner', organizer: 'Jelajah Rasa', venue: 'Lapangan Banteng', tags: ['Street Food'], short: '200 tenant makanan khas daerah dalam satu festival.' },
  { title: 'Bazar Kopi Lokal', category: 'kuliner', organizer: 'Petani Kopi Bersatu', venue: 'Pasar Seni', tags: ['Kopi', 'UMKM'], short: 'Cicipi kopi dari Gayo hingga Wamena.' },
  { title: 'Pasar Malam Jajanan Tradisional', category: 'kuliner', organizer: 'Paguyuban Pedagang Kuliner', venue: 'Jalan Braga', tags: ['Street Food', 'Malam Minggu'], short: 'Jajanan pasar dan makanan kaki lima sampai tengah malam.' },
  { title: 'Festival Makanan Nabati', category: 'kuliner', organizer: 'Vegan Indonesia', venue: 'Taman Menteng', tags: ['Vegan', 'Lingkungan'], price: [25000, 25000], short: 'Menu nabati kreatif dan demo masak sehat.' },
  { title: 'Konferensi Developer Indonesia', category: 'teknologi', organizer: 'Developer Indonesia', type: 'hybrid', venue: 'Balai Kartini', tags: ['Web', 'Mobile', 'AI'], price: [300000, 1200000], short: 'Dua hari sesi teknis tentang web, mobile, dan AI.' },
  { title: 'Hackathon Kota Cerdas', category: 'teknologi', organizer: 'Dinas Kominfo', venue: 'Gedung Inovasi', tags: ['Startup', 'Data'], short: '48 jam membangun solusi untuk layanan publik.' },
  { title: 'Meetup Data Science', category: 'teknologi', organizer: 'Komunitas Data Indonesia', type: 'hybrid', venue: 'Coworking Space Kolaborasi', tags: ['Data', 'AI'], short: 'Berbagi studi kasus analitik dari industri lokal.' },
  { title: 'Webinar Keamanan Siber untuk UMKM', category: 'teknologi', organizer: 'Siber Aman', type: 'online', venue: 'YouTube Live', tags: ['Keamanan Siber', 'UMKM'], short: 'Melindungi toko daring dari penipuan dan peretasan.' },
  { title: 'Kelas AI untuk Guru', category: 'teknologi', organizer: 'Guru Digital', type: 'online', venue: 'Google Meet', tags: ['AI', 'Beasiswa'], short: 'Memanfaatkan AI untuk menyiapkan materi ajar.' },
  { title: 'Pagelaran Wayang Kulit Semalam Suntuk', category: 'seni-budaya', organizer: 'Sanggar Pedalangan', venue: 'Pendopo Agung', tags: ['Wayang'], short: 'Lakon Bima Suci oleh dalang muda berbakat.' },
  { title: 'Festival Tari Tradisional', category: 'seni-budaya', organizer: 'Dewan Kesenian', venue: 'Taman Budaya', tags: ['Tari'], price: [30000, 60000], short: 'Tari dari 20 sanggar se-Indonesia.' },
  { title: 'Pentas Teater Rakyat', category: 'seni-budaya', organizer: 'Teater Koma Muda', venue: 'Gedung Kesenian', tags: ['Teater'], price: [75000, 200000], short: 'Komedi satir tentang kehidupan kampung kota.' },
  { title: 'Karnaval Budaya Pesisir', category: 'seni-budaya', organizer: 'Pemerintah Kota', venue: 'Jalan Protokol', tags: ['Tari', 'Batik', 'Gratis'], short: 'Pawai kostum dan musik tradisional pesisir.' },
  { title: 'Expo Kampus dan Beasiswa', category: 'pendidikan', organizer: 'Edukasi Indonesia', venue: 'Convention Hall', tags: ['Beasiswa', 'Karier'], short: 'Bertemu 100 kampus dalam dan luar negeri.' },
  { title: 'Seminar Persiapan Kerja Lulusan Baru', category: 'pendidikan', organizer: 'Karier Muda', type: 'hybrid', venue: 'Auditorium Universitas', tags: ['Karier'], price: [50000, 50000], short: 'CV, wawancara, dan negosiasi gaji pertama.' },
  { title: 'Kelas Menulis Kreatif', category: 'pendidikan', organizer: 'Rumah Literasi', venue: 'Perpustakaan Kota', tags: ['Edukasi Anak'], short: 'Menulis cerita pendek bersama penulis tamu.' },
  { title: 'Temu Startup dan Investor', category: 'bisnis', organizer: 'Startup Nusantara', venue: 'Hotel Grand Hyatt', tags: ['Startup', 'Investasi'], price: [500000, 1500000], short: 'Pitching di depan 30 investor modal ventura.' },
  { title: 'Pelatihan Ekspor untuk UMKM', category: 'bisnis', organizer: 'Kementerian Perdagangan', venue: 'Gedung Pusat Bisnis', tags: ['UMKM'], short: 'Langkah praktis membawa produk lokal ke pasar global.' },
  { title: 'Seminar Investasi Reksa Dana', category: 'bisnis', organizer: 'Cerdas Finansial', type: 'online', venue: 'Zoom', tags: ['Investasi'], price: [35000, 35000], short: 'Memulai investasi dari Rp100 ribu dengan aman.' },
  { title: 'Aksi Bersih Pantai', category: 'komunitas', organizer: 'Relawan Laut Biru', venue: 'Pantai Losari', tags: ['Relawan', 'Lingkungan', 'Gratis'], short: 'Bersama memungut sampah plastik di pesisir.' },
  { title: 'Donor Darah dan Cek Kesehatan', category: 'komunitas', organizer: 'PMI Kota', venue: 'Mal Kota', tags: ['Relawan'], short: 'Donor darah dan pemeriksaan kesehatan gratis.' },
  { title: 'Kopdar Komunitas Pecinta Kucing', category: 'komunitas', organizer: 'Kucing Nusantara', venue: 'Taman Kota', tags: ['Keluarga'], short: 'Adopsi, vaksin, dan lomba kucing lucu.' },
  { title: 'Festival Film Pendek Indonesia', category: 'film', organizer: 'Sinema Muda', venue: 'Bioskop Alternatif', tags: ['Dokumenter', 'Animasi'], price: [40000, 40000], short: 'Pemutaran 50 film pendek terpilih dan diskusi sutradara.' },
  { title: 'Layar Tancap Nostalgia', category: 'film', organizer: 'Kineforum', venue: 'Lapangan Kampung', tags: ['Gratis', 'Malam Minggu'], short: 'Nonton film klasik Indonesia di layar tancap.' },
  { title: 'Pekan Film Dokumenter Lingkungan', category: 'film', organizer: 'Dokumenter Hijau', type: 'hybrid', venue: 'Pusat Kebudayaan', tags: ['Dokumenter', 'Lingkungan'], short: 'Kisah hutan, laut, dan orang-orang yang menjaganya.' },
  { title: 'Festival Dongeng Anak', category: 'anak-keluarga', organizer: 'Kampung Dongeng', venue: 'Perpustakaan Kota', tags: ['Edukasi Anak', 'Keluarga', 'Gratis'], short: 'Pendongeng dari berbagai daerah bercerita untuk anak.' },
  { title: 'Taman Bermain Sains', category: 'anak-keluarga', organizer: 'Sains Ceria', venue: 'Museum Sains', tags: ['Edukasi Anak', 'Keluarga'], price: [45000, 45000], short: 'Eksperimen sains seru untuk usia 5-12 tahun.' },
  { title: 'Piknik Keluarga Akhir Pekan', category: 'anak-keluarga', organizer: 'Keluarga Bahagia', venue: 'Kebun Raya', tags: ['Keluarga'], price: [30000, 30000], short: 'Lomba keluarga, musik akustik, dan bazar makanan.' },
  { title: 'Konser Akustik di Kebun Teh', category: 'musik', organizer: 'Nada Pagi', venue: 'Perkebunan Teh', tags: ['Akustik', 'Pop'], price: [175000, 300000], short: 'Musik akustik pagi hari di tengah kebun teh.' },
  { title: 'Festival Musik Timur', category: 'musik', organizer: 'Suara Timur', venue: 'Lapangan Merdeka', tags: ['Pop', 'Rock'], price: [100000, 350000], short: 'Musisi dari Indonesia timur dalam satu panggung.' },
  { title: 'Lomba Lari Lintas Alam', category: 'olahraga', organizer: 'Trail Runner ID', venue: 'Kaki Gunung', tags: ['Lari', 'Lingkungan'], price: [200000, 300000], short: 'Trail run 15K dan 30K melintasi hutan dan sungai.' },
  { title: 'Turnamen Esports Pelajar', category: 'teknologi', organizer: 'Liga Pelajar', venue: 'Gedung Olahraga', tags: ['Mobile'], short: 'Kompetisi gim antarsekolah tingkat provinsi.' },
  { title: 'Pameran Buku dan Literasi', category: 'pendidikan', organizer: 'Ikatan Penerbit', venue: 'Jogja Expo Center', tags: ['Edukasi Anak', 'Keluarga'], short: 'Diskon buku, bedah buku, dan temu penulis.' },
  { title: 'Bazar UMKM Kreatif', category: 'bisnis', organizer: 'Kreatif Lokal', venue: 'Alun-alun Kota', tags: ['UMKM', 'Kriya', 'Gratis'], short: 'Produk kreatif lokal dari fesyen hingga kriya.' },
  { title: 'Kelas Fotografi Produk untuk Jualan Online', category: 'workshop', organizer: 'Jualan Laris', type: 'online', venue: 'Zoom', tags: ['Fotografi', 'UMKM'], price: [60000, 60000], short: 'Foto produk menarik hanya dengan ponsel.' },
  { title: 'Malam Puisi dan Musik', category: 'seni-budaya', organizer: 'Komunitas Sastra Senja', venue: 'Kafe Buku', tags: ['Akustik', 'Teater'], price: [25000, 25000], short: 'Pembacaan puisi diiringi musik akustik.' },
  { title: 'Festival Layang-layang Internasional', category: 'seni-budaya', organizer: 'Persatuan Layang-layang', venue: 'Pantai Padang Galak', tags: ['Keluarga', 'Gratis'], short: 'Layang-layang raksasa tradisional menghiasi langit.' },
  { title: 'Workshop Tenun Ikat', category: 'workshop', organizer: 'Sentra Tenun Ikat', venue: 'Rumah Tenun', tags: ['Kriya', 'Batik'], price: [200000, 200000], short: 'Mengenal motif dan teknik tenun ikat.' },
  { title: 'Konser Amal untuk Pendidikan', category: 'musik', organizer: 'Yayasan Cerdas Bangsa', venue: 'Istora Senayan', tags: ['Pop', 'Beasiswa'], price: [150000, 600000], short: 'Seluruh hasil penjualan tiket untuk beasiswa.' },
  { title: 'Demo Day Akselerator Startup', category: 'bisnis', organizer: 'Akselerator Nusantara', type: 'hybrid', venue: 'Innovation Hub', tags: ['Startup', 'AI'], short: '12 startup tahap awal mempresentasikan produknya.' },
  { title: 'Festival Seafood Pesisir', category: 'kuliner', organizer: 'Nelayan Sejahtera', venue: 'Pelabuhan Lama', tags: ['Street Food'], short: 'Hidangan laut segar langsung dari nelayan.' },
  { title: 'Pameran Mobil Listrik', category: 'pameran', organizer: 'Asosiasi Kendaraan Listrik', venue: 'Indonesia Convention Exhibition', tags: ['Lingkungan'], price: [50000, 100000], short: 'Uji kendara dan teknologi kendaraan listrik terbaru.' },
  { title: 'Meetup Pengembang Web Frontend', category: 'teknologi', organizer: 'Frontend Indonesia', venue: 'Coworking Space Kolaborasi', tags: ['Web'], short: 'Diskusi performa web dan aksesibilitas.' },
  { title: 'Kajian Akbar Akhir Tahun', category: 'religi', organizer: 'Masjid Raya', venue: 'Masjid Raya', tags: ['Keluarga'], short: 'Kajian bersama menjelang akhir tahun.' },
]

export const demoNews = [
  { slug: 'tips-membeli-tiket-konser-agar-tidak-tertipu', title: 'Tips Membeli Tiket Konser agar Tidak Tertipu', category: 'Tips', featured: true },
  { slug: '7-festival-musik-yang-wajib-didatangi-tahun-ini', title: '7 Festival Musik yang Wajib Didatangi Tahun Ini', category: 'Tips', featured: true },
  { slug: 'panduan-persiapan-lari-10k-pertama', title: 'Panduan Persiapan Lari 10K Pertama', category: 'Tips', featured: false },
  { slug: 'cara-menghemat-biaya-nonton-festival-luar-kota', title: 'Cara Menghemat Biaya Nonton Festival di Luar Kota', category: 'Tips', featured: false },
  { slug: 'liputan-jazz-gunung-bromo-hangat-di-tengah-dingin', title: 'Liputan: Jazz Gunung Bromo, Hangat di Tengah Dingin', category: 'Liputan', featured: true },
  { slug: 'liputan-festival-kuliner-nusantara-diserbu-pengunjung', title: 'Liputan: Festival Kuliner Nusantara Diserbu Pengunjung', category: 'Liputan', featured: false },
  { slug: 'liputan-ribuan-pelari-ramaikan-maraton-borobudur', title: 'Liputan: Ribuan Pelari Ramaikan Maraton Borobudur', category: 'Liputan', featured: false },
  { slug: 'liputan-hackathon-kota-cerdas-lahirkan-solusi-publik', title: 'Liputan: Hackathon Kota Cerdas Lahirkan Solusi Publik', category: 'Liputan', featured: false },
  { slug: 'review-pentas-teater-rakyat-satir-yang-menohok', title: 'Review: Pentas Teater Rakyat, Satir yang Menohok', category: 'Review', featured: true },
  { slug: 'review-pameran-foto-wajah-nusantara', title: 'Review: Pameran Foto Wajah Nusantara', category: 'Review', featured: false },
  { slug: 'review-konser-orkestra-simfoni-kemerdekaan', title: 'Review: Konser Orkestra Simfoni Kemerdekaan', category: 'Review', featured: false },
  { slug: 'wawancara-dalang-muda-menjaga-wayang-tetap-hidup', title: 'Wawancara: Dalang Muda Menjaga Wayang Tetap Hidup', category: 'Wawancara', featured: false },
  { slug: 'tren-event-hybrid-setelah-pandemi', title: 'Tren Event Hybrid Setelah Pandemi', category: 'Liputan', featured: false },
  { slug: 'tips-memotret-konser-dengan-ponsel', title: 'Tips Memotret Konser dengan Ponsel', category: 'Tips', featured: false },
  { slug: 'review-festival-film-pendek-indonesia', title: 'Review: Festival Film Pendek Indonesia', category: 'Review', featured: false },
  { slug: 'agenda-event-akhir-tahun-di-bali', title: 'Agenda Event Akhir Tahun di Bali', category: 'Tips', featured: false, draft: true },
]

export const demoAuthors = ['Rina Wulandari', 'Andi Pratama', 'Sekar Ayu', 'Budi Santoso', 'Made Ariani']

export const demoSettings: Record<string, string> = {
  site_title: 'Jelajah Event',
  site_tagline: 'Temukan konser, workshop, lari, dan pameran di seluruh Indonesia',
  site_logo: '/media/demo/logo.png',
  instagram_url: 'https://instagram.com/jelajahevent',
  meta_description: 'Katalog event Indonesia: konser, workshop, olahraga, pameran, dan berita terbaru.',
  contact_email: 'halo@jelajahevent.id',
  contact_phone: '+62215550123',
  contact_whatsapp: '+6281234567890',
}
