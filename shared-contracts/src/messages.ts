/** Indonesian validation messages shared by forms and the API. */
export const V = {
  required: (label: string) => `${label} wajib diisi`,
  string: (label: string) => `${label} harus berupa teks`,
  number: (label: string) => `${label} harus berupa angka`,
  integer: (label: string) => `${label} harus bilangan bulat`,
  max: (label: string, max: number) => `${label} maksimal ${max} karakter`,
  min: (label: string, min: number) => `${label} minimal ${min} karakter`,
  email: (label: string) => `${label} harus berupa alamat email yang valid`,
  url: (label: string) => `${label} harus berupa URL yang valid (contoh: https://contoh.co.id)`,
  oneOf: (label: string) => `${label} tidak valid`,
  unknown: 'Field tidak dikenal: ${unknown}',
} as const;
