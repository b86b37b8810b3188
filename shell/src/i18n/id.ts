/** The shell's Indonesian strings. */
export const t = {
  appName: 'Sistem Sertifikasi',
  titleSuffix: ' - Sistem Sertifikasi',
  login: {
    heading: 'Login Sistem Sertifikasi',
    username: 'Username',
    password: 'Password',
    submit: 'Login',
    submitting: 'Mohon Ditunggu...',
  },
  header: {
    company: 'Perusahaan',
    allCompanies: 'Semua Perusahaan',
    greeting: 'Halo,',
    logout: 'Log Out',
    fullscreen: 'Layar penuh',
    menu: 'Buka menu',
    closeMenu: 'Tutup menu',
    skipToContent: 'Langsung ke konten utama',
  },
  // Menu groups and link labels come from the route registry (shared-contracts/src/routes.ts).
  menu: {
    navigation: 'Navigasi utama',
  },
  notFound: {
    heading: 'Halaman Tidak Ditemukan',
    text: 'Halaman yang anda cari tidak ditemukan. Silakan kembali ke halaman utama.',
    back: 'Statistik',
  },
  profile: {
    heading: 'Pengaturan Profil',
    name: 'Nama User',
    username: 'Username',
    email: 'Email',
    emailHint: 'Untuk ringkasan mingguan jadwal audit (opsional)',
    password: 'Password',
    passwordHint: 'Kosongkan bila tidak diubah',
    currentPassword: 'Password Saat Ini',
    edit: 'Ubah Profil',
  },
  remote: {
    unavailable: 'Modul ini belum tersedia atau sedang tidak dapat dimuat.',
    retry: 'Coba Lagi',
    loading: 'Memuat modul...',
  },
  loading: 'Memuat...',
  footer: '© Sistem Sertifikasi',
} as const;
