/**
 * Laporan dan Statistik: this module's Indonesian strings. Report titles, column headers, filter
 * labels, chart presets and granularities come from shared-contracts (the API's workbook uses the
 * same words); common words ('Batalkan', 'Detail', the empty box) from shared-ui.
 */
export const t = {
  dashboard: {
    totals: 'Ringkasan',
    auditDue: 'Audit Jatuh Tempo',
    auditLate: 'Terlambat',
    auditSoon: 'Segera (30 hari)',
    auditOpen: 'Lihat Jadwal Audit',
    companiesCertified: 'Perusahaan Tersertifikasi',
    companyCertifications: 'Sertifikasi Perusahaan',
    personnelCertified: 'Personel Tersertifikasi',
    trainingCertifications: 'Sertifikasi Pelatihan',
    statusTitle: 'Status Sertifikasi Perusahaan',
    /** Text under a bar: '12 dari 40 skema (30%)'. */
    statusShare: (total: string, all: string, percent: string) => `${total} dari ${all} skema (${percent}%)`,
    expiringTitle: 'Sertifikat Kadaluarsa Bulan Ini',
    expiringEmpty: 'Tidak ada sertifikat yang kadaluarsa bulan ini',
    /** When the list is capped: 'Menampilkan 100 dari 240 sertifikat'. */
    expiringMore: (shown: string, total: string) => `Menampilkan ${shown} dari ${total} sertifikat`,
    /** Before the expiry date, the last valid day: 'Berlaku sampai 30 November 2026'. */
    expiresOn: 'Berlaku sampai',
    certificateNumber: 'No.',
    logo: (name: string) => `Logo ${name}`,
    companyChart: 'Grafik Sertifikasi Perusahaan',
    trainingChart: 'Grafik Sertifikasi Pelatihan',
    /** The search icon's accessible name: 'Atur Grafik Sertifikasi Perusahaan'. */
    chartSettings: (chart: string) => `Atur ${chart}`,
    chartLoading: 'Memuat grafik',
    chartFailed: 'Grafik tidak dapat dimuat',
    /** What the current chart shows: '1 minggu terakhir · Harian'. */
    chartSummary: (period: string, granularity: string) => `${period} · ${granularity}`,
    seriesCompany: 'Sertifikasi Perusahaan',
    seriesTraining: 'Sertifikasi Pelatihan',
    settingsTitle: (chart: string) => `Pengaturan ${chart}`,
    status: 'Status',
    period: 'Periode',
    startDate: 'Tanggal Mulai',
    endDate: 'Tanggal Akhir',
    granularity: 'Satuan Waktu',
    apply: 'Terapkan',
    statusRequired: 'Pilih minimal satu status',
    dateRequired: 'Tanggal wajib diisi',
    dateOrder: 'Tanggal Akhir tidak boleh sebelum Tanggal Mulai',
  },
  report: {
    search: 'Cari Data',
    searching: 'Mencari Data...',
    export: 'Export Excel',
    exporting: 'Export Data...',
    filters: 'Filter',
    searchPlaceholder: 'Nama, nomor sertifikat, ...',
    /** Accessible names of the two pickers of a range: 'Tanggal Terbit dari', 'Tanggal Terbit sampai'. */
    rangeFrom: (label: string) => `${label} dari`,
    rangeTo: (label: string) => `${label} sampai`,
    rangeOrder: 'Tanggal akhir tidak boleh sebelum tanggal awal',
    exportProgress: 'Mengunduh file Excel',
    /** 'Diterima 1,2 MB' */
    received: (size: string) => `Diterima ${size}`,
    /** 'Diterima 1,2 MB dari 3,4 MB' */
    receivedOf: (size: string, total: string) => `Diterima ${size} dari ${total}`,
    exportDone: 'File Excel berhasil diunduh',
    exportCancelled: 'Export dibatalkan',
    clientNumber: 'No.',
    noCompany: 'Pilih perusahaan di bagian atas halaman',
  },
  picker: {
    previousMonth: 'Bulan sebelumnya',
    nextMonth: 'Bulan berikutnya',
    openPreviousView: 'Tampilan sebelumnya',
    openNextView: 'Tampilan berikutnya',
    yearViewOpen: 'tampilan tahun terbuka, beralih ke kalender',
    calendarViewOpen: 'tampilan kalender terbuka, beralih ke tahun',
    cancel: 'Batal',
    clear: 'Kosongkan',
    ok: 'OK',
    today: 'Hari ini',
    toolbarTitle: 'Pilih tanggal',
    chooseDate: 'Pilih tanggal',
    chosenDate: (date: string) => `Pilih tanggal, tanggal terpilih ${date}`,
    dateTable: 'pilih tanggal',
    day: 'Hari',
    month: 'Bulan',
    year: 'Tahun',
    dayPlaceholder: 'HH',
    monthPlaceholder: 'BB',
    yearPlaceholder: 'TTTT',
    empty: 'Kosong',
  },
} as const;
