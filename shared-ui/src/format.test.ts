import {
  daysUntil,
  formatDate,
  formatDateTime,
  formatNumber,
  formatRupiah,
  imageUrl,
  orDash,
} from './format';

describe('formatDate', () => {
  it("shows dates as 'DD MMMM YYYY' with Indonesian month names", () => {
    expect(formatDate('2026-01-05')).toBe('05 Januari 2026');
    expect(formatDate('2025-08-17')).toBe('17 Agustus 2025');
    expect(formatDate(new Date(2024, 11, 31))).toBe('31 Desember 2024');
  });

  it("shows '-' for an empty or unreadable date", () => {
    expect(formatDate(null)).toBe('-');
    expect(formatDate(undefined)).toBe('-');
    expect(formatDate('')).toBe('-');
    expect(formatDate('bukan tanggal')).toBe('-');
  });

  it('takes another format when asked', () => {
    expect(formatDate('2026-03-09', 'DD/MM/YYYY')).toBe('09/03/2026');
  });
});

describe('formatNumber', () => {
  it('uses id-ID separators', () => {
    expect(formatNumber(1234567)).toBe('1.234.567');
    expect(formatNumber(1234.5)).toBe('1.234,5');
    expect(formatNumber('42')).toBe('42');
    expect(formatNumber(0)).toBe('0');
  });

  it("shows '-' when empty or not a number", () => {
    expect(formatNumber(null)).toBe('-');
    expect(formatNumber('')).toBe('-');
    expect(formatNumber('abc')).toBe('-');
  });
});

describe('formatRupiah', () => {
  it("writes 'Rp ' and dot thousands separators", () => {
    expect(formatRupiah(1500000)).toBe('Rp 1.500.000');
    expect(formatRupiah('2500')).toBe('Rp 2.500');
    expect(formatRupiah(999)).toBe('Rp 999');
    expect(formatRupiah(0)).toBe('Rp 0');
    expect(formatRupiah(-7500)).toBe('-Rp 7.500');
  });

  it("shows '-' when empty", () => {
    expect(formatRupiah(null)).toBe('-');
    expect(formatRupiah(undefined)).toBe('-');
    expect(formatRupiah('')).toBe('-');
    expect(formatRupiah('x')).toBe('-');
  });
});

describe('orDash and imageUrl', () => {
  it("shows '-' for empty text and serves images from /images/", () => {
    expect(orDash('')).toBe('-');
    expect(orDash(null)).toBe('-');
    expect(orDash('Jakarta')).toBe('Jakarta');
    expect(imageUrl('logo 1.png')).toBe('/images/logo%201.png');
    expect(imageUrl('')).toBeNull();
    expect(imageUrl(null)).toBeNull();
  });
});

describe('formatDateTime', () => {
  it('shows DD MMMM YYYY HH:mm in Indonesian, or -', () => {
    expect(formatDateTime('2026-01-05T14:30:00')).toBe('05 Januari 2026 14:30');
    expect(formatDateTime(null)).toBe('-');
  });
});

describe('daysUntil', () => {
  it('counts whole calendar days, negative once past, null when empty', () => {
    expect(daysUntil('2026-03-01', '2026-02-27')).toBe(2);
    expect(daysUntil('2028-03-01', '2028-02-28')).toBe(2); // leap year
    expect(daysUntil('2026-02-27', '2026-02-27T23:59:00')).toBe(0);
    expect(daysUntil('2026-02-20', '2026-02-27')).toBe(-7);
    expect(daysUntil('', '2026-02-27')).toBeNull();
    expect(daysUntil('not a date', '2026-02-27')).toBeNull();
  });
});
