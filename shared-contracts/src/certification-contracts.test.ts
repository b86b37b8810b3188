import {
  addValidity,
  certificationTypeInputSchema,
  daysBetween,
  effectiveStatus,
  isCalendarDate,
  longDate,
  pickerDate,
  schemeInputSchema,
  todayIn,
  trainingCertificateInputSchema,
} from './index';

const A = '3f2a1c4e-0000-4000-8000-000000000001';
const B = '9b1c2d3e-0000-4000-8000-000000000002';

describe('expiry arithmetic (docs/rules.md#records)', () => {
  it('keeps the day, or takes the month end when the month is shorter', () => {
    expect(addValidity('2024-01-31', 1, 'MONTH')).toBe('2024-02-29');
    expect(addValidity('2023-01-31', 1, 'MONTH')).toBe('2023-02-28');
    expect(addValidity('2024-02-29', 1, 'YEAR')).toBe('2025-02-28');
    expect(addValidity('2024-02-29', 4, 'YEAR')).toBe('2028-02-29');
    expect(addValidity('2023-11-15', 3, 'MONTH')).toBe('2024-02-15');
    expect(addValidity('2023-12-31', 1, 'DAY')).toBe('2024-01-01');
    expect(addValidity('2024-02-28', 2, 'DAY')).toBe('2024-03-01');
  });
  it('knows real calendar dates and counts days', () => {
    expect(isCalendarDate('2023-02-29')).toBe(false);
    expect(isCalendarDate('2024-02-29')).toBe(true);
    expect(isCalendarDate('2024-13-01')).toBe(false);
    expect(daysBetween('2024-02-28', '2024-03-01')).toBe(2);
    expect(daysBetween('2024-03-01', '2024-02-28')).toBe(-2);
  });
  it("tells today's date in the deployment's time zone", () => {
    // 17:30 UTC on the 16th is already the 17th in Jakarta (UTC+7).
    expect(todayIn('Asia/Jakarta', new Date('2026-03-16T17:30:00Z'))).toBe('2026-03-17');
    expect(todayIn('UTC', new Date('2026-03-16T17:30:00Z'))).toBe('2026-03-16');
  });
  it('writes dates out (DD MMMM YYYY, dd/MM/yyyy) without a time zone', () => {
    expect(longDate('2024-03-05', 'en')).toBe('05 March 2024');
    expect(longDate('2024-03-05', 'id')).toBe('05 Maret 2024');
    expect(longDate('2025-12-31', 'id')).toBe('31 Desember 2025');
    expect(longDate('not a date', 'en')).toBe('not a date');
    expect(pickerDate('2024-03-05')).toBe('05/03/2024');
  });
  it('shows an ACTIVE scheme past its expiry as EXPIRED, nothing else', () => {
    expect(effectiveStatus('ACTIVE', '2024-01-01', '2024-01-02')).toBe('EXPIRED');
    expect(effectiveStatus('ACTIVE', '2024-01-02', '2024-01-02')).toBe('ACTIVE');
    expect(effectiveStatus('SUSPENDED', '2024-01-01', '2024-01-02')).toBe('SUSPENDED');
  });
});

describe('scheme input', () => {
  const base = {
    certificate_id: A,
    certification_id: B,
    cert_number: ' QMS/2024/001 ',
    status: 'ACTIVE',
    issue_date: '2024-01-31',
    valid_for: '3',
    valid_for_type: 'YEAR',
    is_accredited: 'false',
  };
  it('casts numbers written as text and trims the number', () => {
    const v = schemeInputSchema.validateSync(base);
    expect(v.valid_for).toBe(3);
    expect(v.cert_number).toBe('QMS/2024/001');
  });
  it('needs an accreditation body when accredited', () => {
    expect(() => schemeInputSchema.validateSync({ ...base, is_accredited: 'true' })).toThrow(
      'Akreditasi wajib diisi',
    );
    expect(
      schemeInputSchema.validateSync({ ...base, is_accredited: true, accredited_id: A }).is_accredited,
    ).toBe('true');
  });
  it('refuses impossible dates, unknown statuses and an expiry sent by the client', () => {
    expect(() => schemeInputSchema.validateSync({ ...base, issue_date: '2023-02-29' })).toThrow(/tanggal/);
    expect(() => schemeInputSchema.validateSync({ ...base, status: 'EXPIRED' })).toThrow(
      'Status tidak valid',
    );
    // The API refuses fields its schema does not know (api/src/lib/validation.ts).
    expect(Object.keys(schemeInputSchema.fields)).not.toContain('expired_date');
  });
});

describe('certification type and training input', () => {
  it('takes an empty optional number as none and needs the order number', () => {
    const v = certificationTypeInputSchema.validateSync({
      company_id: A,
      name: 'ISO 9001:2015',
      category: 'Sistem Manajemen',
      code: 'QMS',
      position: '1',
      valid_for: '',
      valid_for_type: '',
    });
    expect(v.valid_for).toBeNull();
    expect(v.valid_for_type).toBeNull();
    expect(() =>
      certificationTypeInputSchema.validateSync({
        company_id: A,
        name: 'x',
        category: 'y',
        code: 'z',
        position: '',
      }),
    ).toThrow('No. Urut wajib diisi');
  });
  it('keeps newlines in the description only', () => {
    const base = {
      company_id: A,
      name: 'Budi',
      certificate_number: 'TR/1',
      training: 'Auditor',
      location: 'Jakarta',
      date: '2024-05-01',
    };
    expect(trainingCertificateInputSchema.validateSync({ ...base, desc: 'a\nb' }).desc).toBe('a\nb');
    expect(() => trainingCertificateInputSchema.validateSync({ ...base, location: 'a\nb' })).toThrow(
      /kontrol/,
    );
  });
});
