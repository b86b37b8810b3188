/** The strings of the signature check and the credential download, in both page languages. */
export const SIGNATURE_STRINGS = {
  id: {
    valid: 'Tanda tangan digital valid',
    mismatch: 'Tanda tangan digital tidak cocok dengan data sertifikat',
    unchecked: 'Tanda tangan digital tidak dapat diperiksa di peramban ini',
    checking: 'Memeriksa tanda tangan digital...',
    download: 'Unduh Kredensial',
  },
  en: {
    valid: 'Digital signature valid',
    mismatch: 'Digital signature does not match the certificate data',
    unchecked: 'The digital signature could not be checked in this browser',
    checking: 'Checking the digital signature...',
    download: 'Download Credential',
  },
} as const;
