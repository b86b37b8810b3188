import * as yup from 'yup';
import {
  companyInputSchema,
  companyListQuerySchema,
  listQuerySchema,
  loginSchema,
  loginMessage,
  parseCompanyIds,
  PERMISSION_KEYS,
  profileSchema,
  roleInputSchema,
  roleUpdateSchema,
  scopeWithin,
  toListResponse,
  userCreateSchema,
  userUpdateSchema,
} from './index';

const A = '3f2a1c4e-0000-4000-8000-000000000001';
const B = '9b1c2d3e-0000-4000-8000-000000000002';

describe('permission catalogue', () => {
  it('has the twelve module keys, the audit schedule, the two notification keys, the two audit planning keys, IAF CertSearch and create/edit/delete for the seven action modules', () => {
    expect(PERMISSION_KEYS).toHaveLength(12 + 1 + 2 + 2 + 1 + 7 * 3);
    expect(PERMISSION_KEYS).toEqual(
      expect.arrayContaining([
        'audit-schedule',
        'notification-log',
        'webhook',
        'auditor',
        'audit-plan',
        'iaf-certsearch',
      ]),
    );
    expect(PERMISSION_KEYS).toEqual(
      expect.arrayContaining(['statistik', 'company-certificate:create', 'roles:delete']),
    );
    expect(PERMISSION_KEYS).not.toContain('statistik:create');
  });
});

describe('company_ids as it travels', () => {
  it('reads "ALL" with or without quotes and arrays of ids', () => {
    expect(parseCompanyIds('"ALL"')).toBe('ALL');
    expect(parseCompanyIds('ALL')).toBe('ALL');
    expect(parseCompanyIds(JSON.stringify([A, B, A]))).toEqual([A, B]);
  });
  it('refuses anything else', () => {
    for (const bad of ['all', '["x"]', '{}', '', '[1]', 42, null]) expect(parseCompanyIds(bad)).toBeNull();
  });
  it('knows when a scope lies inside another', () => {
    expect(scopeWithin([A], 'ALL')).toBe(true);
    expect(scopeWithin('ALL', [A])).toBe(false);
    expect(scopeWithin([A, B], [A])).toBe(false);
    expect(scopeWithin([A], [A, B])).toBe(true);
    expect(scopeWithin([], 'ALL')).toBe(true);
    expect(scopeWithin([], [A])).toBe(false);
    expect(scopeWithin([], [])).toBe(false);
  });
});

describe('forms and API share one validation', () => {
  it('user: password required on create, optional on edit, at least 8 characters', async () => {
    const base = { name: 'Budi', username: 'budi', roles_id: A, company_ids: '"ALL"' };
    await expect(userCreateSchema.validate(base)).rejects.toThrow('Password wajib diisi');
    await expect(userUpdateSchema.validate({ ...base, password: '' })).resolves.toMatchObject({
      is_active: 'true',
    });
    await expect(userUpdateSchema.validate({ ...base, password: 'short' })).rejects.toThrow(
      'Password minimal 8 karakter',
    );
    await expect(
      userCreateSchema.validate({ ...base, username: 'a b', password: 'password1' }),
    ).rejects.toThrow(/Username/);
    await expect(
      userCreateSchema.validate({ ...base, company_ids: '[]', password: 'password1' }),
    ).rejects.toThrow('Pilih minimal satu perusahaan atau ALL');
  });
  it('passwords: never only spaces, in every form that sets one', async () => {
    const base = { name: 'Budi', username: 'budi', roles_id: A, company_ids: '"ALL"' };
    const spaces = ' '.repeat(10);
    for (const schema of [userCreateSchema, userUpdateSchema]) {
      await expect(schema.validate({ ...base, password: spaces })).rejects.toThrow(
        'Password tidak boleh hanya berisi spasi',
      );
    }
    await expect(
      profileSchema.validate({ name: 'Budi', username: 'budi', password: spaces, current_password: 'x' }),
    ).rejects.toThrow('Password tidak boleh hanya berisi spasi');
    // Spaces inside a password are fine: it is never trimmed.
    await expect(userCreateSchema.validate({ ...base, password: ' rahasia 1 ' })).resolves.toMatchObject({
      password: ' rahasia 1 ',
    });
  });
  it('profile: a new password needs the current one; name and username alone do not', async () => {
    const base = { name: 'Budi', username: 'budi' };
    await expect(profileSchema.validate(base)).resolves.toEqual(base);
    await expect(profileSchema.validate({ ...base, password: 'sandi-baru-1' })).rejects.toThrow(
      'Password Saat Ini wajib diisi',
    );
    await expect(
      profileSchema.validate({ ...base, password: 'sandi-baru-1', current_password: 'sandi-lama' }),
    ).resolves.toMatchObject({ current_password: 'sandi-lama' });
  });
  it('role: a missing permission list is empty on create and absent (kept) on update', async () => {
    await expect(roleInputSchema.validate({ name: 'Akses' })).resolves.toEqual({
      name: 'Akses',
      permission: [],
    });
    await expect(roleUpdateSchema.validate({ name: 'Akses' })).resolves.toEqual({ name: 'Akses' });
  });
  it('company: name and a URL website required, email checked only when filled', async () => {
    await expect(companyInputSchema.validate({ name: 'PT A', website: 'bukan url' })).rejects.toThrow(/URL/);
    await expect(companyInputSchema.validate({ website: 'https://a.co.id' })).rejects.toThrow(
      'Nama Perusahaan wajib diisi',
    );
    await expect(
      companyInputSchema.validate({ name: 'PT A', website: 'https://a.co.id', email: '' }),
    ).resolves.toMatchObject({
      email: null,
      simple_dates: 'false',
    });
    await expect(
      companyInputSchema.validate({ name: 'PT A', website: 'https://a.co.id', email: 'x@' }),
    ).rejects.toThrow(/email/);
  });
});

describe('list and messages', () => {
  it('shapes a page with from/to', () => {
    expect(toListResponse(['a', 'b'], 42, 3, 20)).toEqual({
      total: 42,
      per_page: 20,
      data: ['a', 'b'],
      current_page: 3,
      last_page: 3,
      from: 41,
      to: 42,
    });
    expect(toListResponse([], 0, 1, 20)).toMatchObject({ from: null, to: null, last_page: 1 });
    // A search counted up to the cap: the total is the cap, marked; the last page follows from it.
    expect(toListResponse(['a'], 10_001, 2, 20, true)).toEqual({
      total: 10_000,
      total_capped: true,
      per_page: 20,
      data: ['a'],
      current_page: 2,
      last_page: 500,
      from: 21,
      to: 21,
    });
    expect(toListResponse(['a'], 10_000, 1, 20, false)).not.toHaveProperty('total_capped');
  });
  it('maps login codes to the spec texts, unknown ones to "Data user tidak ditemukan"', () => {
    expect(loginMessage('l-wrong')).toBe('Nama pengguna & kata sandi salah');
    expect(loginMessage('l-unverified')).toBe('Status user anda tidak aktif');
    expect(loginMessage('something')).toBe('Data user tidak ditemukan');
    expect(loginMessage(undefined)).toBe('Data user tidak ditemukan');
  });
});

describe('control characters and yup in Indonesian', () => {
  it('text fields refuse control characters; newline and tab only in a multi-line field', async () => {
    const company = { name: 'PT A', website: 'https://a.co.id' };
    await expect(companyInputSchema.validate({ ...company, name: 'PT\u0000A' })).rejects.toThrow(
      'Nama Perusahaan tidak boleh berisi karakter kontrol',
    );
    await expect(companyInputSchema.validate({ ...company, name: 'PT\nA' })).rejects.toThrow(
      'Nama Perusahaan tidak boleh berisi karakter kontrol',
    );
    await expect(
      companyInputSchema.validate({ ...company, address: 'Jl. A\nJakarta\tPusat' }),
    ).resolves.toMatchObject({ address: 'Jl. A\nJakarta\tPusat' });
    await expect(companyInputSchema.validate({ ...company, address: 'Jl.\u0000' })).rejects.toThrow(
      'Alamat tidak boleh berisi karakter kontrol',
    );
    await expect(loginSchema.validate({ username: 'ad\u0000min', password: 'x' })).rejects.toThrow(
      'Username tidak boleh berisi karakter kontrol',
    );
    await expect(listQuerySchema.validate({ search: 'a\u0000' })).rejects.toThrow(
      'Pencarian tidak boleh berisi karakter kontrol',
    );
  });
  it('takes company_id on company-owned lists only (docs/rules.md#api-conventions)', () => {
    // The API refuses a query parameter its schema does not name (422).
    expect(Object.keys(listQuerySchema.fields).sort()).toEqual(['page', 'paginate', 'search']);
    expect(Object.keys(companyListQuerySchema.fields).sort()).toEqual([
      'company_id',
      'page',
      'paginate',
      'search',
    ]);
    expect(companyListQuerySchema.validateSync({ company_id: ' ALL ' })).toMatchObject({
      company_id: 'ALL',
      page: 1,
      paginate: 20,
    });
  });
  it("yup's own defaults speak Indonesian", () => {
    const message = (schema: yup.AnySchema, value: unknown) => {
      try {
        schema.validateSync(value);
        return '';
      } catch (e) {
        return (e as yup.ValidationError).message;
      }
    };
    expect(message(yup.object({ search: yup.string() }), { search: ['a'] })).toBe('search harus berupa teks');
    expect(message(yup.number().label('Halaman'), 'x')).toBe('Halaman harus berupa angka');
    expect(message(yup.string().label('Kode').max(2), 'abc')).toBe('Kode maksimal 2 karakter');
    expect(message(yup.string().label('Kode').required(), '')).toBe('Kode wajib diisi');
    expect(message(yup.string().label('Kode').oneOf(['a']), 'b')).toBe('Kode tidak valid');
  });
});
