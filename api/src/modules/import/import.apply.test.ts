import type { ClientCertificateInput, SchemeInput } from '@sertifikasi/shared-contracts';
import { AppError } from '../../lib/errors';
import { rowRefusal } from './import.apply';
import type { ClientPlan } from './import.plan';

/** A client of rows 4-6 with three schemes, each on its own row. */
const client: ClientPlan = {
  row: 4,
  rows: 3,
  existing: null,
  changed: true,
  input: { certificate_number: 'KL-9', name: 'PT Sembilan' } as ClientCertificateInput,
  schemes: ['SK-1', 'SK-2', 'SK-3'].map((cert_number, i) => ({
    row: 4 + i,
    existing: null,
    changed: true,
    input: { cert_number, certification_id: '00000000-0000-4000-8000-00000000000a' } as SchemeInput,
  })),
};

/** A unique violation as pg reports it, wrapped the way drizzle wraps it. */
const duplicate = (constraint: string, key: string) =>
  new Error('insert failed', {
    cause: Object.assign(new Error('duplicate key'), {
      code: '23505',
      constraint,
      detail: `Key (lower(TRIM(BOTH FROM cert_number)))=(${key}) already exists.`,
    }),
  });

describe('a record refused while the job applies it names its cell', () => {
  it("a scheme's number taken meanwhile: that scheme's row, the column's header and the file's value", () => {
    expect(rowRefusal(client, duplicate('schemes_cert_number_uq', 'sk-2'))).toEqual({
      row: 5,
      column: 'Nomor Sertifikat',
      value: 'SK-2',
      message: 'Nomor sertifikat sudah digunakan',
    });
  });

  it("the client's own number: the client's first row", () => {
    expect(rowRefusal(client, duplicate('client_certificates_number_uq', 'kl-9'))).toEqual({
      row: 4,
      column: 'Nomor Sertifikat Klien',
      value: 'KL-9',
      message: 'Nomor sertifikat sudah digunakan',
    });
  });

  it('a service refusal of a reference shows its header and no id as the value', () => {
    const err = new AppError(422, 'validation', 'Data tidak valid', {
      certification_id: 'Sertifikat tidak ditemukan',
    });
    expect(rowRefusal(client, err)).toEqual({
      row: 4,
      column: 'Sertifikat',
      value: '',
      message: 'Sertifikat tidak ditemukan',
    });
  });

  it('what is no refusal (a lost connection) is not one', () => {
    expect(rowRefusal(client, new Error('connection terminated'))).toBeNull();
  });
});
