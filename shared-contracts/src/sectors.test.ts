import {
  countryName,
  formatSectorCodes,
  IAF_SECTORS,
  isCountryCode,
  isSectorCode,
  parseSectorCodes,
  schemeInputSchema,
  sectorLabel,
} from './index';

describe('IAF sector codes', () => {
  it('names the 39 codes in order, in English and Indonesian', () => {
    expect(IAF_SECTORS.map((s) => s.code)).toEqual(Array.from({ length: 39 }, (_, i) => i + 1));
    expect(IAF_SECTORS[0]).toEqual({
      code: 1,
      en: 'Agriculture, forestry and fishing',
      id: 'Pertanian, kehutanan dan perikanan',
    });
    expect(IAF_SECTORS[27]).toMatchObject({ code: 28, en: 'Construction', id: 'Konstruksi' });
    expect(IAF_SECTORS[32]).toMatchObject({ code: 33, en: 'Information technology' });
    expect(IAF_SECTORS[38]).toMatchObject({ code: 39, en: 'Other social services' });
    expect(sectorLabel(28)).toBe('28 - Konstruksi');
  });

  it('knows a code only as a whole number from 1 to 39', () => {
    expect([1, 39].every(isSectorCode)).toBe(true);
    expect([0, 40, 2.5, '28', null].some(isSectorCode)).toBe(false);
  });

  it.each([
    ['EA 28', [28]],
    ['28', [28]],
    ['28, 33', [28, 33]],
    ['28;33', [28, 33]],
    ['EA 33 / EA 28', [28, 33]],
    ['IAF: 3, 3 & 12', [3, 12]],
    ['ea28 35', [28, 35]],
    ['  01 ', [1]],
  ])('reads %j as %j', (text, codes) => {
    expect(parseSectorCodes(text)).toEqual(codes);
  });

  it.each(['', 'abc', 'EA 40', '0', '28a', '28,,33', 'NACE 28', '2.5', '123'])(
    'reads %j as nothing',
    (text) => {
      expect(parseSectorCodes(text)).toBeNull();
    },
  );

  it('writes codes as an export cell', () => {
    expect(formatSectorCodes([28, 33])).toBe('28, 33');
    expect(formatSectorCodes([])).toBe('');
  });
});

describe('countries', () => {
  it('names codes in Indonesian and knows codes beyond the short list', () => {
    expect(countryName('ID')).toBe('Indonesia');
    expect(countryName('DE')).toBe('Jerman');
    expect(isCountryCode('BR')).toBe(true);
    expect(isCountryCode('ZZ')).toBe(false);
    expect(isCountryCode('id')).toBe(false);
  });
});

describe('the scheme input', () => {
  const base = {
    certificate_id: '3f2a1c4e-0000-4000-8000-000000000001',
    certification_id: '3f2a1c4e-0000-4000-8000-000000000002',
    cert_number: 'QMS/1',
    status: 'ACTIVE',
    issue_date: '2025-01-10',
    valid_for: 3,
    valid_for_type: 'YEAR',
    is_accredited: 'false',
  };
  it('defaults to no sector codes and no sites', () => {
    expect(schemeInputSchema.validateSync(base)).toMatchObject({ sector_codes: [], sites: [] });
  });
  it('refuses a code outside 1-39 with the Indonesian message', () => {
    expect(() => schemeInputSchema.validateSync({ ...base, sector_codes: [40] })).toThrow(
      'Kode Sektor IAF harus antara 1 dan 39',
    );
  });
});
