/**
 * The vocabulary of the demo data set: certification bodies, accreditation bodies, standards,
 * Indonesian places, industries, names and trainings. Fictional companies and people; the standards
 * and accreditation bodies are the real ones an Indonesian certification body works with.
 *
 * Long file: data, not logic: word lists and seed tables the generator draws from.
 */
import type { ValidForType } from '@sertifikasi/shared-contracts';

const words = (text: string): string[] => text.split(/\s+/).filter(Boolean);

export interface BodySeed {
  /** Short prefix used in numbers and usernames. */
  key: string;
  name: string;
  initials: string;
  colour: string;
  email: string;
  phone: string;
  address: string;
  website: string;
  simple_dates: boolean;
  public_certificate_download: boolean;
  /** Share of the clients and training certificates. */
  share: number;
  /** Codes of the standards it certifies (STANDARDS). */
  standards: string[];
  /** Short names of the accreditation bodies it holds (ACCREDITATION_BODIES). */
  accreditationBodies: string[];
  /** Scheme number: code, year, sequence. Some hold '/', some do not. */
  schemeNumber: (code: string, year: number, seq: number) => string;
  trainingNumber: (year: number, seq: number) => string;
  clientNumber: (seq: number) => string;
}

const seq = (n: number, width: number) => String(n).padStart(width, '0');

/** The three certification bodies (the product's "companies"). */
export const CERTIFICATION_BODIES: BodySeed[] = [
  {
    key: 'msn',
    name: 'PT Mutu Sertifikasi Nusantara',
    initials: 'MSN',
    colour: '#1e5aa8',
    email: 'info@mutusertifikasi.co.id',
    phone: '(021) 5296 4410',
    address: 'Gedung Graha Mutu Lt. 7, Jl. H.R. Rasuna Said Kav. C-22, Jakarta Selatan 12940',
    website: 'https://www.mutusertifikasi.co.id',
    simple_dates: false,
    public_certificate_download: true,
    share: 0.45,
    standards: ['QMS', 'EMS', 'OHSMS', 'ISMS', 'FSMS', 'ABMS', 'SMK3', 'EnMS'],
    accreditationBodies: ['KAN', 'IAS', 'UKAS'],
    schemeNumber: (code, year, n) => `${code}/${year}/${seq(n, 4)}`,
    trainingNumber: (year, n) => `MSN/PLT/${year}/${seq(n, 4)}`,
    clientNumber: (n) => `MSN-KL-${seq(n, 5)}`,
  },
  {
    key: 'gqc',
    name: 'PT Garuda Quality Certification',
    initials: 'GQC',
    colour: '#b3261e',
    email: 'sertifikasi@garudaqc.co.id',
    phone: '(031) 8431 2277',
    address: 'Jl. Raya Darmo No. 118, Surabaya, Jawa Timur 60264',
    website: 'https://www.garudaqc.co.id',
    simple_dates: true,
    public_certificate_download: false,
    share: 0.35,
    standards: ['QMS', 'EMS', 'OHSMS', 'FSMS', 'SMK3', 'ABMS'],
    accreditationBodies: ['KAN', 'JAS-ANZ', 'IAS'],
    schemeNumber: (code, year, n) => `GQC-${code}-${String(year).slice(2)}${seq(n, 5)}`,
    trainingNumber: (year, n) => `GQC-TR-${year}-${seq(n, 5)}`,
    clientNumber: (n) => `GQC.${seq(n, 5)}`,
  },
  {
    key: 'cps',
    name: 'PT Cipta Prima Sertifikasi',
    initials: 'CPS',
    colour: '#2e7d32',
    email: 'admin@ciptaprima-cert.id',
    phone: '(022) 7320 5561',
    address: 'Jl. Soekarno-Hatta No. 590, Bandung, Jawa Barat 40286',
    website: 'https://ciptaprima-cert.id',
    simple_dates: false,
    public_certificate_download: false,
    share: 0.2,
    standards: ['QMS', 'EMS', 'OHSMS', 'ISMS', 'SMK3'],
    accreditationBodies: ['KAN', 'UKAS', 'EIAC', 'IAS'],
    schemeNumber: (code, year, n) => `CPS/${code}/${seq(n, 5)}/${String(year).slice(2)}`,
    trainingNumber: (year, n) => `CPS/TRN/${seq(n, 5)}`,
    clientNumber: (n) => `CPS/KL/${seq(n, 5)}`,
  },
];

export interface AccreditationBodySeed {
  short: string;
  name: string;
  colour: string;
}

export const ACCREDITATION_BODIES: AccreditationBodySeed[] = [
  { short: 'KAN', name: 'Komite Akreditasi Nasional (KAN)', colour: '#c62828' },
  { short: 'IAS', name: 'International Accreditation Service (IAS)', colour: '#0d47a1' },
  { short: 'UKAS', name: 'United Kingdom Accreditation Service (UKAS)', colour: '#37474f' },
  {
    short: 'JAS-ANZ',
    name: 'Joint Accreditation System of Australia and New Zealand (JAS-ANZ)',
    colour: '#00695c',
  },
  { short: 'EIAC', name: 'Emirates International Accreditation Centre (EIAC)', colour: '#6a1b9a' },
];

export interface StandardSeed {
  code: string;
  name: string;
  category: string;
  /** Short label drawn on the icon. */
  label: string;
  colour: string;
  valid_for: number;
  valid_for_type: ValidForType;
}

export const STANDARDS: StandardSeed[] = [
  {
    code: 'QMS',
    name: 'ISO 9001:2015',
    category: 'Sistem Manajemen Mutu',
    label: '9001',
    colour: '#1565c0',
    valid_for: 3,
    valid_for_type: 'YEAR',
  },
  {
    code: 'EMS',
    name: 'ISO 14001:2015',
    category: 'Sistem Manajemen Lingkungan',
    label: '14001',
    colour: '#2e7d32',
    valid_for: 3,
    valid_for_type: 'YEAR',
  },
  {
    code: 'OHSMS',
    name: 'ISO 45001:2018',
    category: 'Sistem Manajemen Keselamatan dan Kesehatan Kerja',
    label: '45001',
    colour: '#ef6c00',
    valid_for: 3,
    valid_for_type: 'YEAR',
  },
  {
    code: 'ISMS',
    name: 'ISO/IEC 27001:2022',
    category: 'Sistem Manajemen Keamanan Informasi',
    label: '27001',
    colour: '#4527a0',
    valid_for: 3,
    valid_for_type: 'YEAR',
  },
  {
    code: 'FSMS',
    name: 'ISO 22000:2018',
    category: 'Sistem Manajemen Keamanan Pangan',
    label: '22000',
    colour: '#f9a825',
    valid_for: 3,
    valid_for_type: 'YEAR',
  },
  {
    code: 'ABMS',
    name: 'ISO 37001:2016',
    category: 'Sistem Manajemen Anti Penyuapan',
    label: '37001',
    colour: '#5d4037',
    valid_for: 3,
    valid_for_type: 'YEAR',
  },
  {
    code: 'SMK3',
    name: 'SMK3 PP 50/2012',
    category: 'Keselamatan dan Kesehatan Kerja',
    label: 'SMK3',
    colour: '#00838f',
    valid_for: 3,
    valid_for_type: 'YEAR',
  },
  {
    code: 'EnMS',
    name: 'ISO 50001:2018',
    category: 'Sistem Manajemen Energi',
    label: '50001',
    colour: '#827717',
    valid_for: 3,
    valid_for_type: 'YEAR',
  },
];

export interface Place {
  city: string;
  province: string;
  postal: string;
  areaCode: string;
  estate?: string;
}

/** Cities (with the province that is a client's region), postal and telephone area codes. */
export const PLACES: Place[] = [
  { city: 'Jakarta Pusat', province: 'DKI Jakarta', postal: '10110', areaCode: '021' },
  { city: 'Jakarta Selatan', province: 'DKI Jakarta', postal: '12190', areaCode: '021' },
  {
    city: 'Jakarta Utara',
    province: 'DKI Jakarta',
    postal: '14140',
    areaCode: '021',
    estate: 'Kawasan Berikat Nusantara',
  },
  {
    city: 'Jakarta Timur',
    province: 'DKI Jakarta',
    postal: '13920',
    areaCode: '021',
    estate: 'Kawasan Industri Pulogadung',
  },
  { city: 'Jakarta Barat', province: 'DKI Jakarta', postal: '11470', areaCode: '021' },
  { city: 'Bandung', province: 'Jawa Barat', postal: '40115', areaCode: '022' },
  {
    city: 'Kabupaten Bekasi',
    province: 'Jawa Barat',
    postal: '17530',
    areaCode: '021',
    estate: 'Kawasan Industri Jababeka',
  },
  {
    city: 'Bekasi',
    province: 'Jawa Barat',
    postal: '17141',
    areaCode: '021',
    estate: 'Kawasan Industri MM2100',
  },
  { city: 'Bogor', province: 'Jawa Barat', postal: '16122', areaCode: '0251' },
  {
    city: 'Karawang',
    province: 'Jawa Barat',
    postal: '41361',
    areaCode: '0267',
    estate: 'Kawasan Industri KIIC',
  },
  { city: 'Depok', province: 'Jawa Barat', postal: '16431', areaCode: '021' },
  {
    city: 'Semarang',
    province: 'Jawa Tengah',
    postal: '50132',
    areaCode: '024',
    estate: 'Kawasan Industri Wijayakusuma',
  },
  { city: 'Surakarta', province: 'Jawa Tengah', postal: '57111', areaCode: '0271' },
  { city: 'Kudus', province: 'Jawa Tengah', postal: '59311', areaCode: '0291' },
  {
    city: 'Surabaya',
    province: 'Jawa Timur',
    postal: '60293',
    areaCode: '031',
    estate: 'Kawasan Industri SIER Rungkut',
  },
  {
    city: 'Sidoarjo',
    province: 'Jawa Timur',
    postal: '61253',
    areaCode: '031',
    estate: 'Kawasan Industri Berbek',
  },
  {
    city: 'Gresik',
    province: 'Jawa Timur',
    postal: '61121',
    areaCode: '031',
    estate: 'Kawasan Industri Gresik',
  },
  { city: 'Malang', province: 'Jawa Timur', postal: '65111', areaCode: '0341' },
  {
    city: 'Pasuruan',
    province: 'Jawa Timur',
    postal: '67152',
    areaCode: '0343',
    estate: 'Kawasan Industri PIER',
  },
  {
    city: 'Tangerang',
    province: 'Banten',
    postal: '15111',
    areaCode: '021',
    estate: 'Kawasan Industri Millennium',
  },
  {
    city: 'Cilegon',
    province: 'Banten',
    postal: '42435',
    areaCode: '0254',
    estate: 'Kawasan Industri Krakatau',
  },
  { city: 'Serang', province: 'Banten', postal: '42111', areaCode: '0254' },
  { city: 'Yogyakarta', province: 'DI Yogyakarta', postal: '55211', areaCode: '0274' },
  { city: 'Denpasar', province: 'Bali', postal: '80111', areaCode: '0361' },
  {
    city: 'Medan',
    province: 'Sumatera Utara',
    postal: '20111',
    areaCode: '061',
    estate: 'Kawasan Industri Medan',
  },
  { city: 'Pekanbaru', province: 'Riau', postal: '28111', areaCode: '0761' },
  {
    city: 'Batam',
    province: 'Kepulauan Riau',
    postal: '29432',
    areaCode: '0778',
    estate: 'Batamindo Industrial Park',
  },
  { city: 'Palembang', province: 'Sumatera Selatan', postal: '30111', areaCode: '0711' },
  { city: 'Padang', province: 'Sumatera Barat', postal: '25111', areaCode: '0751' },
  { city: 'Bandar Lampung', province: 'Lampung', postal: '35111', areaCode: '0721' },
  {
    city: 'Balikpapan',
    province: 'Kalimantan Timur',
    postal: '76111',
    areaCode: '0542',
    estate: 'Kawasan Industri Kariangau',
  },
  { city: 'Samarinda', province: 'Kalimantan Timur', postal: '75111', areaCode: '0541' },
  { city: 'Banjarmasin', province: 'Kalimantan Selatan', postal: '70111', areaCode: '0511' },
  { city: 'Pontianak', province: 'Kalimantan Barat', postal: '78111', areaCode: '0561' },
  {
    city: 'Makassar',
    province: 'Sulawesi Selatan',
    postal: '90111',
    areaCode: '0411',
    estate: 'Kawasan Industri Makassar',
  },
  { city: 'Manado', province: 'Sulawesi Utara', postal: '95111', areaCode: '0431' },
];

export const STREETS = [
  'Jl. Jenderal Sudirman',
  'Jl. M.H. Thamrin',
  'Jl. Gatot Subroto',
  'Jl. Diponegoro',
  'Jl. Ahmad Yani',
  'Jl. Gajah Mada',
  'Jl. Hayam Wuruk',
  'Jl. Merdeka',
  'Jl. Pahlawan',
  'Jl. Veteran',
  'Jl. Imam Bonjol',
  'Jl. Pemuda',
  'Jl. Raya Industri',
  'Jl. Kartini',
  'Jl. Asia Afrika',
  'Jl. Teuku Umar',
  'Jl. Pattimura',
  'Jl. Sisingamangaraja',
  'Jl. Raya Bogor',
  'Jl. Panglima Sudirman',
];

export interface Industry {
  ea: string;
  nace: string;
  /** What a certificate of this industry covers (the scheme's scope). */
  scope: string;
  /** Words a company of this industry puts in its name. */
  nameWords: string[];
}

/** IAF EA sectors with a NACE rev. 2 code and the scope text of a typical certificate. */
export const INDUSTRIES: Industry[] = [
  {
    ea: '02',
    nace: 'B08.1',
    scope: 'Penambangan dan pengolahan batu, pasir dan tanah liat',
    nameWords: words('Tambang Mineral Mining'),
  },
  {
    ea: '03',
    nace: 'C10.8',
    scope: 'Produksi makanan olahan dan minuman dalam kemasan',
    nameWords: words('Pangan Food Makmur Boga'),
  },
  {
    ea: '04',
    nace: 'C13.2',
    scope: 'Pemintalan, penenunan dan pencelupan kain tekstil',
    nameWords: words('Tekstil Textile Garmindo'),
  },
  {
    ea: '07',
    nace: 'C17.2',
    scope: 'Produksi kemasan karton gelombang dan kertas',
    nameWords: words('Kemasindo Paper Karton'),
  },
  {
    ea: '12',
    nace: 'C20.3',
    scope: 'Produksi cat, tinta dan bahan pelapis',
    nameWords: words('Kimia Chemical Coating'),
  },
  {
    ea: '14',
    nace: 'C22.2',
    scope: 'Produksi kemasan dan komponen plastik injeksi',
    nameWords: words('Plastindo Polimer Plastik'),
  },
  {
    ea: '17',
    nace: 'C25.1',
    scope: 'Fabrikasi dan pemasangan struktur baja',
    nameWords: words('Baja Steel Metal Logam'),
  },
  {
    ea: '18',
    nace: 'C28.2',
    scope: 'Manufaktur mesin dan peralatan industri',
    nameWords: words('Mesindo Engineering Teknik'),
  },
  {
    ea: '19',
    nace: 'C27.3',
    scope: 'Produksi kabel listrik dan perlengkapan instalasi',
    nameWords: words('Elektrik Kabel Listrindo'),
  },
  {
    ea: '25',
    nace: 'D35.1',
    scope: 'Pembangkitan dan distribusi tenaga listrik',
    nameWords: words('Energi Power Daya'),
  },
  {
    ea: '28',
    nace: 'F41.2',
    scope: 'Jasa pelaksana konstruksi gedung dan bangunan sipil',
    nameWords: words('Konstruksi Karya Bangun Kontraktor'),
  },
  {
    ea: '29',
    nace: 'G46.6',
    scope: 'Perdagangan besar dan distribusi peralatan industri',
    nameWords: words('Niaga Trading Distribusi'),
  },
  {
    ea: '31',
    nace: 'H52.1',
    scope: 'Jasa logistik, pergudangan dan ekspedisi muatan',
    nameWords: words('Logistik Ekspres Cargo Transportasi'),
  },
  {
    ea: '33',
    nace: 'J62.0',
    scope: 'Pengembangan perangkat lunak dan layanan teknologi informasi',
    nameWords: words('Teknologi Digital Solusi Informatika'),
  },
  {
    ea: '34',
    nace: 'M71.1',
    scope: 'Jasa konsultansi teknik, survei dan rekayasa',
    nameWords: words('Rekayasa Konsultan Engineering'),
  },
  {
    ea: '35',
    nace: 'N81.2',
    scope: 'Jasa pengelolaan fasilitas dan kebersihan gedung',
    nameWords: words('Layanan Servis Facility'),
  },
  {
    ea: '37',
    nace: 'P85.5',
    scope: 'Penyelenggaraan pendidikan dan pelatihan kerja',
    nameWords: words('Edukasi Pendidikan Pelatihan'),
  },
  {
    ea: '38',
    nace: 'Q86.1',
    scope: 'Pelayanan kesehatan rumah sakit dan klinik',
    nameWords: words('Medika Husada Farma'),
  },
];

export const NAME_FIRST = words(
  'Sinar Cahaya Mitra Karya Bumi Putra Sarana Graha Mega Prima Duta Citra Surya Bintang Anugerah ' +
    'Berkah Tunas Cipta Artha Nusa Indo Multi Global Panca Tri Eka Dwi Catur Bina Harapan Intan ' +
    'Kencana Samudra Tirta Wahana Pilar Gading Mutiara Permata Adhi Dharma Sentra Wijaya Mandala',
);
export const NAME_SECOND = words(
  'Abadi Jaya Sejahtera Makmur Mandiri Sentosa Perkasa Utama Lestari Gemilang Persada Nusantara ' +
    'Indonesia Raya Bersama Sukses Perdana Semesta Andalan Kencana',
);
export const COMPANY_FORMS = [
  ['PT', 80],
  ['CV', 10],
  ['Koperasi', 2],
  ['Yayasan', 2],
  ['PT Tbk', 6],
] as const;

export const FIRST_NAMES = words(
  'Budi Siti Agus Dewi Rina Andi Eko Sri Joko Wahyu Putri Ahmad Muhammad Nur Dian Fitri Hendra ' +
    'Indra Yusuf Rizky Ayu Bambang Hadi Slamet Teguh Wulan Ratna Fajar Arif Dedi Yanti Nurul Rahmat ' +
    'Taufik Irfan Galih Bayu Citra Intan Maya Novi Rudi Sari Tri Yogi Zainal Gita Hana Lina Mega ' +
    'Nanda Reza Surya Umar Vina Yudi Kadek Made Ketut Wayan Asep Ujang Dodi Ikhsan Farah Laras ' +
    'Annisa Dimas Aditya Lukman Suryani Herlina Andreas Yohanes Maria Stefanus Christina',
);
export const LAST_NAMES = words(
  'Santoso Wijaya Saputra Pratama Hidayat Nugroho Kusuma Setiawan Siregar Nasution Harahap Lubis ' +
    'Simanjuntak Sitompul Situmorang Hutapea Gunawan Susanto Permana Rahman Hakim Firmansyah ' +
    'Kurniawan Wibowo Purnomo Suryadi Halim Tanjung Sembiring Ginting Tarigan Manurung Marpaung ' +
    'Ramadhan Maulana Utami Lestari Anggraini Rahayu Wulandari Puspitasari Handayani Safitri ' +
    'Prasetyo Sutrisno Hartono Effendi Syahputra Fauzi Iskandar Tambunan Batubara Panjaitan Pane ' +
    'Sinaga Daulay Mahendra Dewanti Pangaribuan Wattimena Pattiasina Mandagi Rumagit',
);
export const TITLES = ['', '', '', '', 'Ir. ', 'Dr. ', 'H. ', 'Hj. '];
export const DEGREES = ['', '', '', '', ', S.T.', ', S.E.', ', M.M.', ', S.Kom.', ', M.T.', ', S.H.'];

export interface TrainingSeed {
  name: string;
  /** Code of the standard it belongs to, if any. */
  standard: string | null;
}

export const TRAININGS: TrainingSeed[] = [
  { name: 'Auditor Internal ISO 9001:2015', standard: 'QMS' },
  { name: 'Lead Auditor ISO 9001:2015', standard: 'QMS' },
  { name: 'Awareness ISO 9001:2015', standard: 'QMS' },
  { name: 'Auditor Internal ISO 14001:2015', standard: 'EMS' },
  { name: 'Identifikasi Aspek dan Dampak Lingkungan', standard: 'EMS' },
  { name: 'Auditor Internal ISO 45001:2018', standard: 'OHSMS' },
  { name: 'HIRADC dan Manajemen Risiko K3', standard: 'OHSMS' },
  { name: 'Auditor Internal SMK3 PP 50/2012', standard: 'SMK3' },
  { name: 'Ahli K3 Umum', standard: 'SMK3' },
  { name: 'Implementasi ISO/IEC 27001:2022', standard: 'ISMS' },
  { name: 'Lead Implementer ISO/IEC 27001:2022', standard: 'ISMS' },
  { name: 'Auditor Internal ISO 22000:2018', standard: 'FSMS' },
  { name: 'HACCP dan Keamanan Pangan', standard: 'FSMS' },
  { name: 'Pemahaman ISO 37001:2016 Sistem Manajemen Anti Penyuapan', standard: 'ABMS' },
  { name: 'Manajer Energi ISO 50001:2018', standard: 'EnMS' },
  { name: 'Manajemen Risiko ISO 31000:2018', standard: null },
  { name: 'Auditor Internal Sistem Manajemen Terintegrasi', standard: null },
];

export const TRAINING_VENUES = [
  'Hotel Santika Premiere, Jakarta',
  'Hotel Aston, Surabaya',
  'Grand Tjokro Hotel, Bandung',
  'Hotel Horison, Semarang',
  'Hotel Grand Mercure, Medan',
  'Hotel Novotel, Balikpapan',
  'Ruang Pelatihan MSN, Jakarta Selatan',
  'Daring (Zoom Meeting)',
  'Daring (Zoom Meeting)',
  'Daring (Microsoft Teams)',
];

export const TRAINING_NOTES = [
  'Lulus dengan predikat sangat baik',
  'Lulus',
  'Peserta in-house training',
  'Lulus ujian tertulis dan praktik audit',
];

/** Notes of audits done (the certification cycle). */
export const AUDIT_NOTES = [
  'Tidak ada temuan mayor',
  'Dua temuan minor, tindakan perbaikan diterima',
  'Audit surveilan sesuai rencana',
  'Audit dilakukan jarak jauh',
];

export const STATUS_NOTES = {
  SUSPENDED: [
    'Dibekukan: temuan mayor pada audit surveilan belum ditutup',
    'Dibekukan: audit surveilan tidak dilaksanakan tepat waktu',
    'Dibekukan atas permintaan klien selama renovasi pabrik',
  ],
  WITHDRAWN: [
    'Dicabut: klien tidak menindaklanjuti pembekuan',
    'Dicabut atas permintaan klien',
    'Dicabut: perusahaan menghentikan kegiatan usaha',
  ],
  NOACTIVE: [
    'Tidak diperpanjang oleh klien',
    'Klien beralih ke lembaga sertifikasi lain',
    'Sertifikat digantikan oleh sertifikat baru',
  ],
  DRAFT: ['Menunggu keputusan sertifikasi', 'Menunggu pembayaran', 'Dokumen audit tahap 2 sedang ditinjau'],
} as const;
