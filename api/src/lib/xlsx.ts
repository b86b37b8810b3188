/**
 * Spreadsheet helpers (exceljs only: DECISIONS.md section 12, CONVENTIONS "Versions and traps"):
 * the bound on what an uploaded xlsx (a zip) may unpack to, reading the first sheet's rows with
 * exceljs's streaming reader, turning a cell into what it shows, and writing a small workbook with
 * the streaming writer.
 */
import { Readable, type Writable } from 'node:stream';
import { inflateRawSync } from 'node:zlib';
import ExcelJS from 'exceljs';

export const XLSX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Why a file cannot be read as a workbook. */
export class XlsxError extends Error {
  constructor(readonly reason: 'not-xlsx' | 'unpacks-too-large') {
    super(reason);
    this.name = 'XlsxError';
  }
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

/**
 * Checks that `file` is a zip whose entries unpack to at most `maxUnpacked` bytes in all, by
 * inflating each (never trusting the sizes the archive claims): a small file that would unpack to
 * gigabytes (a zip bomb) is refused before any parser reads it. Throws XlsxError.
 */
export function checkZipBound(file: Buffer, maxUnpacked: number): void {
  // The end-of-central-directory record: 22 bytes plus a comment of at most 65,535.
  let eocd = -1;
  for (let i = file.length - 22; i >= Math.max(0, file.length - 22 - 65_535); i--) {
    if (file.readUInt32LE(i) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new XlsxError('not-xlsx');
  const entries = file.readUInt16LE(eocd + 10);
  let at = file.readUInt32LE(eocd + 16);
  let budget = maxUnpacked;
  for (let n = 0; n < entries; n++) {
    if (at + 46 > file.length || file.readUInt32LE(at) !== CENTRAL) throw new XlsxError('not-xlsx');
    const method = file.readUInt16LE(at + 10);
    const compressed = file.readUInt32LE(at + 20);
    const nameLength = file.readUInt16LE(at + 28);
    const extraLength = file.readUInt16LE(at + 30);
    const commentLength = file.readUInt16LE(at + 32);
    const local = file.readUInt32LE(at + 42);
    at += 46 + nameLength + extraLength + commentLength;
    if (local + 30 > file.length || file.readUInt32LE(local) !== LOCAL) throw new XlsxError('not-xlsx');
    const start = local + 30 + file.readUInt16LE(local + 26) + file.readUInt16LE(local + 28);
    if (compressed === 0xffffffff || start + compressed > file.length) throw new XlsxError('not-xlsx');
    const data = file.subarray(start, start + compressed);
    if (method === 0) {
      budget -= data.length;
    } else if (method === 8) {
      try {
        budget -= inflateRawSync(data, { maxOutputLength: Math.max(1, budget + 1) }).length;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' || err instanceof RangeError)
          throw new XlsxError('unpacks-too-large');
        throw new XlsxError('not-xlsx');
      }
    } else {
      throw new XlsxError('not-xlsx');
    }
    if (budget < 0) throw new XlsxError('unpacks-too-large');
  }
}

/** A cell as read: what it shows as text (for messages), its value, or why it has none. */
export interface ReadCell {
  /** Text, a number, a date cell's calendar date, a boolean; null when empty. */
  value: string | number | boolean | Date | null;
  /** What the user sees in the cell, for error reports. */
  text: string;
  /** Set when the cell cannot count as a value (a formula without a stored result, an error). */
  problem?: 'formula-no-result' | 'error';
}

const EMPTY: ReadCell = { value: null, text: '' };

const isoDay = (d: Date) => d.toISOString().slice(0, 10);
const DATE_FORMAT = /(^|[^"\\])[dmy]/i;

function plain(value: unknown): ReadCell {
  if (value === null || value === undefined) return EMPTY;
  if (typeof value === 'string') return value === '' ? EMPTY : { value, text: value };
  if (typeof value === 'number') return { value, text: String(value) };
  if (typeof value === 'boolean') return { value, text: value ? 'TRUE' : 'FALSE' };
  if (value instanceof Date) return { value, text: isoDay(value) };
  const v = value as Record<string, unknown>;
  if (Array.isArray(v.richText)) {
    const text = (v.richText as { text: string }[]).map((r) => r.text).join('');
    return text === '' ? EMPTY : { value: text, text };
  }
  if ('error' in v) return { value: null, text: String(v.error), problem: 'error' };
  if ('text' in v) return plain(v.text);
  return EMPTY;
}

/**
 * The value of a cell: text stays text (never evaluated, `=` included), a date cell its date, a
 * formula its stored result (none stored: a problem).
 */
export function readCell(cell: ExcelJS.Cell | undefined): ReadCell {
  if (!cell) return EMPTY;
  const value = cell.value as unknown;
  if (value && typeof value === 'object' && ('formula' in value || 'sharedFormula' in value)) {
    const { result } = value as { result?: unknown };
    if (result === undefined || result === null || result === '')
      return {
        value: null,
        text: `=${String((value as { formula?: string }).formula ?? '')}`,
        problem: 'formula-no-result',
      };
    // A formula's numeric result in a date-formatted cell is a date (Excel's day count).
    if (typeof result === 'number' && DATE_FORMAT.test(cell.numFmt ?? '')) {
      const d = new Date(Date.UTC(1899, 11, 30) + Math.round(result * 86_400_000));
      return { value: d, text: isoDay(d) };
    }
    return plain(result);
  }
  return plain(value);
}

/** One row of a sheet: its row number (1 = the first) and its cells by column (1-based). */
export interface SheetRow {
  number: number;
  cells: (ExcelJS.Cell | undefined)[];
}

/**
 * The rows of the first sheet of an xlsx, in order, read with exceljs's streaming reader (shared
 * strings and styles cached, so date cells come as dates). Empty rows are skipped. Throws
 * XlsxError('not-xlsx') when no sheet can be read.
 */
export async function* firstSheetRows(file: Buffer): AsyncGenerator<SheetRow> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([file]), {
    sharedStrings: 'cache',
    styles: 'cache',
    hyperlinks: 'ignore',
    worksheets: 'emit',
    entries: 'ignore',
  });
  let sheets = 0;
  try {
    for await (const sheet of reader) {
      sheets++;
      for await (const row of sheet) {
        const cells: (ExcelJS.Cell | undefined)[] = [];
        row.eachCell({ includeEmpty: false }, (cell, col) => {
          cells[col] = cell;
        });
        yield { number: row.number, cells };
      }
      break;
    }
  } catch (err) {
    if (err instanceof XlsxError) throw err;
    throw new XlsxError('not-xlsx');
  }
  if (sheets === 0) throw new XlsxError('not-xlsx');
}

export interface SheetSpec {
  name: string;
  /** Column widths (characters). */
  widths: number[];
  /** The first row, written bold and frozen. */
  header: string[];
  rows?: (string | number | Date | null)[][];
}

/** Writes a workbook of small sheets to `out` with exceljs's streaming writer. */
export async function writeWorkbook(out: Writable, sheets: SheetSpec[], created: Date): Promise<void> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true });
  workbook.creator = 'Sistem Sertifikasi';
  workbook.created = created;
  for (const spec of sheets) {
    const sheet = workbook.addWorksheet(spec.name, { views: [{ state: 'frozen', ySplit: 1 }] });
    sheet.columns = spec.widths.map((width) => ({ width }));
    const header = sheet.addRow(spec.header);
    header.font = { bold: true };
    header.commit();
    for (const row of spec.rows ?? []) {
      const written = sheet.addRow(row);
      written.alignment = { wrapText: true, vertical: 'top' };
      written.commit();
    }
    sheet.commit();
  }
  await workbook.commit();
}
