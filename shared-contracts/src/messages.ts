import * as yup from 'yup';
import { V } from './text-rules';

/** Indonesian validation messages shared by forms and the API (their words: text-rules.ts). */
export { V };

interface Params {
  path?: string;
  label?: string;
  type?: string;
}
const name = (p: Params) => p.label || p.path || 'Nilai';
const TYPE_NAMES: Record<string, string> = {
  string: 'teks',
  number: 'angka',
  boolean: 'benar/salah',
  date: 'tanggal',
  array: 'daftar',
  object: 'objek',
  tuple: 'daftar',
};
const notType = (p: Params) =>
  p.type && TYPE_NAMES[p.type] ? `${name(p)} harus berupa ${TYPE_NAMES[p.type]}` : `${name(p)} tidak valid`;

/**
 * yup's own default messages, in Indonesian: whatever a schema does not word itself never reaches a
 * user or a client in English (docs/rules.md#api-conventions). Set here, in the module every schema imports,
 * so it happens before any schema is built (yup reads these when a schema is made).
 */
yup.setLocale({
  mixed: {
    default: (p: Params) => `${name(p)} tidak valid`,
    required: (p: Params) => `${name(p)} wajib diisi`,
    defined: (p: Params) => `${name(p)} wajib diisi`,
    notNull: (p: Params) => `${name(p)} wajib diisi`,
    oneOf: (p: Params) => `${name(p)} tidak valid`,
    notOneOf: (p: Params) => `${name(p)} tidak valid`,
    notType,
  },
  string: {
    length: (p: Params & { length?: number }) => `${name(p)} harus tepat ${p.length} karakter`,
    min: (p: Params & { min?: number }) => `${name(p)} minimal ${p.min} karakter`,
    max: (p: Params & { max?: number }) => `${name(p)} maksimal ${p.max} karakter`,
    matches: (p: Params) => `${name(p)} tidak sesuai format`,
    email: (p: Params) => `${name(p)} harus berupa alamat email yang valid`,
    url: (p: Params) => `${name(p)} harus berupa URL yang valid`,
    uuid: (p: Params) => `${name(p)} tidak valid`,
    datetime: (p: Params) => `${name(p)} harus berupa tanggal dan waktu ISO`,
    datetime_precision: (p: Params) => `${name(p)} harus berupa tanggal dan waktu ISO`,
    datetime_offset: (p: Params) => `${name(p)} harus berupa tanggal dan waktu ISO dalam UTC`,
    trim: (p: Params) => `${name(p)} tidak boleh diawali atau diakhiri spasi`,
    lowercase: (p: Params) => `${name(p)} harus huruf kecil`,
    uppercase: (p: Params) => `${name(p)} harus huruf besar`,
  },
  number: {
    min: (p: Params & { min?: number }) => `${name(p)} minimal ${p.min}`,
    max: (p: Params & { max?: number }) => `${name(p)} maksimal ${p.max}`,
    lessThan: (p: Params & { less?: number }) => `${name(p)} harus kurang dari ${p.less}`,
    moreThan: (p: Params & { more?: number }) => `${name(p)} harus lebih dari ${p.more}`,
    positive: (p: Params) => `${name(p)} harus bilangan positif`,
    negative: (p: Params) => `${name(p)} harus bilangan negatif`,
    integer: (p: Params) => `${name(p)} harus bilangan bulat`,
  },
  date: {
    min: (p: Params) => `${name(p)} terlalu awal`,
    max: (p: Params) => `${name(p)} terlalu akhir`,
  },
  boolean: { isValue: (p: Params) => `${name(p)} tidak valid` },
  object: {
    noUnknown: (p: Params & { unknown?: string | string[] }) =>
      `Field tidak dikenal: ${[p.unknown ?? []].flat().join(', ')}`,
    exact: (p: Params & { properties?: string | string[] }) =>
      `Field tidak dikenal: ${[p.properties ?? []].flat().join(', ')}`,
  },
  array: {
    min: (p: Params & { min?: number }) => `${name(p)} minimal ${p.min} item`,
    max: (p: Params & { max?: number }) => `${name(p)} maksimal ${p.max} item`,
    length: (p: Params & { length?: number }) => `${name(p)} harus ${p.length} item`,
  },
  tuple: { notType },
});
