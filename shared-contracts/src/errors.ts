/** Stable error codes of the API's `{code, message}` error shape (docs/rules.md#api-conventions). */
export const ERROR_CODES = {
  badRequest: 'bad-request',
  validation: 'validation',
  unauthenticated: 'unauthenticated',
  forbidden: 'forbidden',
  notFound: 'not-found',
  /** 409: the record is in use and the change would break what refers to it (a covered site, an auditor on a planned audit). */
  conflict: 'conflict',
  tooLarge: 'too-large',
  unsupportedMediaType: 'unsupported-media-type',
  tooManyRequests: 'too-many-requests',
  internal: 'internal',
  unavailable: 'unavailable',
  loginFailed: 'l-failed',
  loginUnverified: 'l-unverified',
  loginWrong: 'l-wrong',
  loginThrottled: 'l-throttled',
} as const;
export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];

export interface ApiError {
  /** One of ERROR_CODES (a string, so that unknown future codes still type-check). */
  code: string;
  message: string;
  errors?: Record<string, string>;
}

export const LOGIN_MESSAGES: Record<string, string> = {
  [ERROR_CODES.loginFailed]: 'Data user tidak ditemukan',
  [ERROR_CODES.loginUnverified]: 'Status user anda tidak aktif',
  [ERROR_CODES.loginWrong]: 'Nama pengguna & kata sandi salah',
  [ERROR_CODES.loginThrottled]: 'Terlalu banyak percobaan login, coba lagi nanti',
};

/**
 * The message shown for a login failure code; 'unavailable' (503) reads as its own message, unknown
 * codes as 'Data user tidak ditemukan'.
 */
export function loginMessage(code: string | undefined): string {
  if (code === ERROR_CODES.unavailable) return MESSAGES.unavailable;
  return (code && LOGIN_MESSAGES[code]) || LOGIN_MESSAGES[ERROR_CODES.loginFailed]!;
}

export const MESSAGES = {
  systemError: 'Maaf, ada kesalahan pada sistem',
  created: 'Berhasil menambahkan data',
  updated: 'Berhasil merubah data',
  deleted: 'Berhasil menghapus data',
  qrCreated: 'Berhasil membuat QR',
  /** Delete refused: companies, schemes. */
  inUseProduct: 'Gagal menghapus data karena data ini sudah dipakai di product',
  /** Delete refused: users, roles, certification types, accreditations, client/training certificates. */
  inUseOrder: 'Gagal menghapus data karena data ini sudah dipakai di order',
  unauthenticated: 'Sesi anda telah berakhir, silakan login kembali',
  forbidden: 'Anda tidak memiliki akses untuk tindakan ini',
  notFound: 'Data tidak ditemukan',
  /** 409: a site a scheme covers is not deleted (docs/rules.md#register-data). */
  siteInUse: 'Lokasi tidak dapat dihapus karena masih tercakup dalam sertifikat',
  validation: 'Data yang dikirim tidak valid',
  badRequest: 'Permintaan tidak dapat dibaca',
  tooLarge: 'Ukuran data terlalu besar',
  /** A multipart body (file upload) sent to a route that takes none. */
  uploadNotAccepted: 'Permintaan ini tidak menerima unggahan file',
  tooManyRequests: 'Terlalu banyak permintaan, coba lagi nanti',
  /** 503: the database is unreachable or the process is overloaded (docs/rules.md#faults-and-overload). */
  unavailable: 'Layanan sedang tidak tersedia, silakan coba lagi beberapa saat lagi',
} as const;
