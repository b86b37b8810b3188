/**
 * Common Indonesian interface text of the portal (docs/conventions.md#strings-and-formats). Texts the
 * product quotes are used exactly as quoted; module-specific text lives in each module's own i18n/id.ts.
 */
export const UI_TEXT = {
  empty: 'Opps, Data Masih Kosong',
  loading: 'Mempersiapkan Data',
  confirmDelete: 'Kamu yakin untuk menghapus data ini',
  cancel: 'Batalkan',
  confirm: 'Yakin',
  save: 'Simpan Data',
  saving: 'Menyimpan...',
  add: 'Tambah',
  edit: 'Ubah',
  detail: 'Detail',
  delete: 'Hapus',
  close: 'Tutup',
  company: 'Perusahaan',
  actions: 'Aksi',
  dash: '-',
  active: 'Aktif',
  inactive: 'Tidak Aktif',
  toastTitle: {
    warning: 'Peringatan',
    danger: 'Gagal',
    success: 'Berhasil',
  },
  searchFallback: 'Cari Data',
  exportExcel: 'Export Excel',
  exporting: 'Export Data...',
  pageSize: 'Data per halaman',
  paginationLabel: 'Navigasi halaman',
  previousPage: 'Halaman sebelumnya',
  nextPage: 'Halaman berikutnya',
  showPassword: 'Tampilkan password',
  hidePassword: 'Sembunyikan password',
  chooseImage: 'Pilih Gambar',
  removeImage: 'Hapus Gambar',
  noImage: 'Belum ada gambar',
  chosenFile: 'File dipilih',
  noOptions: 'Tidak ada pilihan',
  selectPlaceholder: '- Pilih -',
  scrollHint: 'Geser untuk melihat kolom lain',
  table: 'Tabel',
  refreshing: 'Memperbarui data',
  notFound: 'Opps, Data Tidak Ditemukan',
  loadFailed: 'Maaf, ada kesalahan pada sistem',
  retry: 'Coba Lagi',
  downloading: 'Mengunduh...',
} as const;

/** Texts with a value in them. */
export const UI_FORMAT = {
  /** 'Tambah User' */
  addTitle: (label: string) => `${UI_TEXT.add} ${label}`,
  /** 'Ubah User' */
  editTitle: (label: string) => `${UI_TEXT.edit} ${label}`,
  /** The pagination summary, 'Menampilkan 1 - 20 dari 42 data'. */
  summary: (from: string, to: string, total: string) => `Menampilkan ${from} - ${to} dari ${total} data`,
  /** A capped list total, 'lebih dari 10.000'. */
  moreThan: (total: string) => `lebih dari ${total}`,
  /** Accessible name of a page button, 'Halaman 3'. */
  page: (page: number) => `Halaman ${page}`,
  /** The image field's button, 'Pilih Gambar Logo'. */
  chooseImage: (label: string) => `${UI_TEXT.chooseImage} ${label}`,
  /** Alt text of an image preview, 'Pratinjau Logo'. */
  preview: (label: string) => `Pratinjau ${label}`,
} as const;
