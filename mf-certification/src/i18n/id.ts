/** Sertifikasi: this module's Indonesian strings. */
export const t = {
  placeholder: 'Halaman ini sedang disiapkan.',
} as const;
