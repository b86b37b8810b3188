import {
  IMPORT_COLUMNS,
  IMPORT_KINDS,
  IMPORT_SCHEMAS,
  importColumnHelp,
  importStatus,
  importValidForType,
  parseImportDate,
} from './import';

describe('import contracts', () => {
  it('reads the date forms of the Petunjuk sheet, never month first', () => {
    expect(parseImportDate('05/03/2026')).toBe('2026-03-05');
    expect(parseImportDate('5/3/2026')).toBe('2026-03-05');
    expect(parseImportDate('2026-03-05')).toBe('2026-03-05');
    expect(parseImportDate(' 12 Januari 2026 ')).toBe('2026-01-12');
    expect(parseImportDate('29 februari 2024')).toBe('2024-02-29');
    expect(parseImportDate('29 Februari 2025')).toBeNull();
    expect(parseImportDate('12/31/2026')).toBeNull();
    expect(parseImportDate('12 January 2026')).toBeNull();
    expect(parseImportDate('2026/03/05')).toBeNull();
  });

  it('takes the status and validity labels the screens show', () => {
    expect(importStatus(' not  active ')).toBe('NOACTIVE');
    expect(importStatus('active')).toBe('ACTIVE');
    expect(importValidForType('tahun')).toBe('YEAR');
    expect(importValidForType('Month')).toBe('MONTH');
  });

  it('every column fills a field of its entity schema, and explains it', () => {
    for (const kind of IMPORT_KINDS) {
      for (const column of IMPORT_COLUMNS[kind]) {
        expect([column.header, Object.keys(IMPORT_SCHEMAS[column.entity].fields)]).toEqual([
          column.header,
          expect.arrayContaining([column.field]),
        ]);
        const [header, required, rule] = importColumnHelp(kind, column);
        expect(header).toBe(column.header);
        expect(required).toMatch(/^(Wajib|Opsional)/);
        expect(rule).not.toMatch(/undefined|NaN/);
      }
    }
  });
});
