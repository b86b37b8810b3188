/** The public check pages in Indonesian (the training page opens in it). */
export const id = {
  lang: 'id',
  locale: 'id-ID',
  languageGroup: 'Bahasa',
  siteName: 'Sistem Sertifikasi',
  company: {
    title: 'Cek Sertifikat Perusahaan',
    intro: 'Masukkan nomor sertifikat perusahaan untuk memeriksa keabsahannya.',
  },
  training: {
    title: 'Cek Sertifikat Pelatihan',
    intro: 'Masukkan nomor sertifikat pelatihan untuk memeriksa keabsahannya.',
  },
  numberLabel: 'Nomor Sertifikat',
  submit: 'Verifikasi',
  checking: 'Memeriksa...',
  failed: 'Pemeriksaan gagal. Periksa koneksi Anda lalu coba lagi.',
  tooMany: 'Terlalu banyak pemeriksaan dari jaringan Anda. Coba lagi dalam satu menit.',
  notFoundTitle: 'Sertifikat Tidak Ditemukan',
  notFoundText:
    'Nomor sertifikat ini tidak terdaftar. Periksa kembali nomornya, atau hubungi layanan pelanggan kami untuk bantuan.',
  resultHeading: 'Hasil Verifikasi',
  rows: {
    certNo: 'No. Sertifikat',
    company: 'Perusahaan',
    address: 'Alamat',
    scope: 'Ruang Lingkup',
    eaCode: 'Kode EA',
    standard: 'Standar',
    accreditation: 'Akreditasi',
    issueDate: 'Tanggal Terbit',
    expireDate: 'Tanggal Kadaluarsa',
    originalIssue: 'Tanggal Terbit Sertifikat Asli',
    latestIssue: 'Tanggal Terbit Terakhir',
    surveillance: 'Tanggal Surveilan Berikutnya',
    recertification: 'Jatuh Tempo Sertifikasi Ulang',
    status: 'Status',
    description: 'Keterangan',
    name: 'Nama',
    certificateNumber: 'Nomor Sertifikat',
    trainingName: 'Pelatihan',
    location: 'Lokasi',
    trainingDate: 'Tanggal Terbit Sertifikat',
  },
  validNow: 'Sertifikat ini berlaku.',
  /** `date` is the expiry date, the last day it was valid (the history says EXPIRED from the next day). */
  expired: (date: string) => `Sertifikat ini telah kadaluarsa. Berlaku sampai ${date}.`,
  notValid: (status: string) => `Sertifikat ini tidak berlaku (status: ${status}).`,
  download: 'Unduh Sertifikat',
  historyHeading: 'Riwayat Status',
  historyEntry: (status: string, date: string) => `${status} sejak ${date}`,
  validOnHeading: 'Cek keabsahan pada tanggal tertentu',
  validOnLabel: 'Berlaku pada tanggal',
  /** The field's placeholder: the format it reads (day first, in both languages). */
  validOnFormat: 'hh/bb/tttt',
  validOnHint: 'Tulis hari/bulan/tahun, misalnya 21/11/2025.',
  validOnBadDate: 'Tanggal tidak dikenali. Tulis hari/bulan/tahun, misalnya 21/11/2025.',
  validOnSubmit: 'Cek Tanggal',
  validOnYes: (date: string) => `Pada ${date} sertifikat ini berlaku.`,
  validOnNo: (date: string, status: string) =>
    `Pada ${date} sertifikat ini tidak berlaku (status: ${status}).`,
  validOnNotIssued: (date: string) => `Pada ${date} sertifikat ini belum diterbitkan.`,
  validOnInvalid: 'Tanggal tidak valid.',
};

/** The shape both languages share (en.ts is checked against it). */
export type Strings = typeof id;
