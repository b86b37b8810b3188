/**
 * Indonesian-looking names for seeded companies, users and roles. A seeded pseudo-random generator
 * makes every run seed the same data, so numbers from different runs compare.
 */

/** The demo generator's seeded source (api/src/demo/random.ts): one generator of random data. */
export { randomSource, type Random } from './api';
import type { Random } from './api';

/** Words of a space-separated string. */
const words = (text: string): string[] => text.split(/\s+/).filter(Boolean);
/** Items of a comma-separated string. */
const list = (text: string): string[] => text.split(',').map((s) => s.trim());

const COMPANY_FORMS = ['PT', 'PT', 'PT', 'PT', 'CV', 'CV', 'UD', 'Koperasi', 'Yayasan'] as const;
const COMPANY_FIRST = words(
  'Sinar Cahaya Mitra Karya Bumi Putra Sarana Graha Mega Prima Duta Citra Surya Bintang ' +
    'Anugerah Berkah Tunas Cipta Artha Nusa Indo Multi Global Panca Tri Eka Dwi Catur Bina ' +
    'Bangun Harapan Intan Jaya Kencana Maju Samudra Tirta Wahana Rekayasa Pilar Gading Mutiara ' +
    'Permata',
);
const COMPANY_SECOND = words(
  'Abadi Jaya Sejahtera Makmur Mandiri Sentosa Perkasa Utama Lestari Gemilang Persada ' +
    'Nusantara Indonesia Raya Bersama Sukses Teknik Konstruksi Engineering Solusi Logistik ' +
    'Energi Kimia Pangan Medika Farma Agro Mineral Elektrik Digital Inspeksi Marine',
);
export const CITIES = words(
  'Jakarta Surabaya Bandung Semarang Medan Makassar Balikpapan Batam Palembang Pekanbaru ' +
    'Denpasar Yogyakarta Malang Cilegon Bekasi Karawang Tangerang Cikarang Gresik Samarinda ' +
    'Pontianak Manado Banjarmasin Padang',
);
const STREETS = list(
  'Sudirman, Thamrin, Gatot Subroto, Diponegoro, Ahmad Yani, Gajah Mada, Hayam Wuruk, ' +
    'Merdeka, Pahlawan, Veteran, Imam Bonjol, Pemuda, Raya Industri, Kartini, Asia Afrika',
);

const FIRST_NAMES = words(
  'Budi Siti Agus Dewi Rina Andi Eko Sri Joko Wahyu Putri Ahmad Muhammad Nur Dian Fitri ' +
    'Hendra Indra Yusuf Rizky Ayu Bambang Hadi Slamet Teguh Wulan Ratna Fajar Arif Dedi Yanti ' +
    'Nurul Rahmat Taufik Irfan Galih Bayu Citra Intan Maya Novi Rudi Sari Tri Yogi Zainal Gita ' +
    'Hana Lina Mega Nanda Reza Surya Umar Vina Yudi Kadek Made Ketut Wayan Asep Ujang Dodi ' +
    'Ikhsan Farah Laras Annisa Dimas Aditya',
);
const LAST_NAMES = words(
  'Santoso Wijaya Saputra Pratama Hidayat Nugroho Kusuma Setiawan Siregar Nasution Harahap ' +
    'Lubis Simanjuntak Sitompul Situmorang Hutapea Gunawan Susanto Permana Rahman Hakim ' +
    'Firmansyah Kurniawan Wibowo Purnomo Suryadi Halim Tanjung Sembiring Ginting Tarigan ' +
    'Manurung Marpaung Ramadhan Maulana Utami Lestari Anggraini Rahayu Wulandari Puspitasari ' +
    'Handayani Safitri Prasetyo Sutrisno Hartono Effendi Syahputra Fauzi Iskandar Tambunan ' +
    'Batubara Panjaitan Pane Sinaga Daulay Mahendra Putra Putri Dewanti',
);

export const ROLE_NAMES = [
  'Auditor',
  'Auditor Kepala',
  'Staf Administrasi',
  'Manajer Sertifikasi',
  'Operator Data',
  'Tim Pelatihan',
  'Supervisor Cabang',
  'Pengawas Mutu',
  'Keuangan',
  'Direktur Operasional',
] as const;

const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/^(pt|cv|ud|koperasi|yayasan) /, '')
    .replace(/[^a-z0-9]+/g, '');

export interface CompanySeed {
  name: string;
  email: string | null;
  phone: string | null;
  address: string | null;
  website: string;
}

/** `count` companies with unique (case-insensitive) names. */
export function companySeeds(rnd: Random, count: number): CompanySeed[] {
  const taken = new Set<string>();
  const out: CompanySeed[] = [];
  while (out.length < count) {
    const city = rnd.pick(CITIES);
    let name = `${rnd.pick(COMPANY_FORMS)} ${rnd.pick(COMPANY_FIRST)} ${rnd.pick(COMPANY_SECOND)}`;
    if (rnd.chance(0.35)) name += ` ${city}`;
    if (taken.has(name.toLowerCase())) name += ` ${out.length + 1}`;
    taken.add(name.toLowerCase());
    const domain = `${slug(name)}.co.id`;
    out.push({
      name,
      email: rnd.chance(0.85) ? `${rnd.pick(['info', 'admin', 'kontak', 'sertifikasi'])}@${domain}` : null,
      phone: rnd.chance(0.9)
        ? `0${rnd.pick(['21', '22', '24', '31', '61', '274', '361', '812', '813', '857'])}-${String(
            1_000_000 + rnd.int(9_000_000),
          )}`
        : null,
      address: rnd.chance(0.8) ? `Jl. ${rnd.pick(STREETS)} No. ${1 + rnd.int(250)}, ${city}` : null,
      website: `https://www.${domain}`,
    });
  }
  return out;
}

export interface UserSeed {
  name: string;
  username: string;
}

/** `count` users with unique (case-insensitive) usernames. */
export function userSeeds(rnd: Random, count: number): UserSeed[] {
  const taken = new Set<string>();
  const out: UserSeed[] = [];
  while (out.length < count) {
    const first = rnd.pick(FIRST_NAMES);
    const last = rnd.pick(LAST_NAMES);
    const name = rnd.chance(0.25) ? `${first} ${rnd.pick(FIRST_NAMES)} ${last}` : `${first} ${last}`;
    let username = `${first}.${last}`.toLowerCase();
    if (taken.has(username)) username += String(out.length + 1);
    taken.add(username);
    out.push({ name, username });
  }
  return out;
}

/** Search terms a user might type, from common to rare, so a realistic fraction of rows matches. */
export const COMPANY_SEARCHES = ['jaya', 'sejahtera', 'mitra', 'surabaya', 'teknik', 'karya abadi', 'medika'];
export const USER_SEARCHES = ['budi', 'sari', 'santoso', 'siregar', 'dewi', 'auditor', 'wijaya', 'putri'];
