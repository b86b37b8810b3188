/**
 * Spreadsheet helpers (exceljs only: docs/rules.md#import, docs/conventions.md#traps):
 * the bound on what an uploaded xlsx (a zip) may unpack to, reading the first sheet's rows with
 * exceljs's streaming reader, turning a cell into what it shows, and writing a small workbook with
 * the streaming writer.
 */
import { Readable, type Writable } from 'node:stream';
import { createInflateRaw, inflateRawSync } from 'node:zlib';
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

/** One entry of a zip: its compression method (0 stored, 8 deflated) and its compressed bytes. */
interface ZipEntry {
  method: number;
  data: Buffer;
}

/**
 * The entries of a zip by name, read from its central directory (the sizes there, then each local
 * header): the one walk over the archive both the bound and the reader use. Throws XlsxError.
 */
function zipEntries(file: Buffer): Map<string, ZipEntry> {
  // The end-of-central-directory record: 22 bytes plus a comment of at most 65,535.
  let eocd = -1;
  for (let i = file.length - 22; i >= Math.max(0, file.length - 22 - 65_535); i--) {
    if (file.readUInt32LE(i) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new XlsxError('not-xlsx');
  const count = file.readUInt16LE(eocd + 10);
  let at = file.readUInt32LE(eocd + 16);
  const entries = new Map<string, ZipEntry>();
  for (let n = 0; n < count; n++) {
    if (at + 46 > file.length || file.readUInt32LE(at) !== CENTRAL) throw new XlsxError('not-xlsx');
    const method = file.readUInt16LE(at + 10);
    const compressed = file.readUInt32LE(at + 20);
    const nameLength = file.readUInt16LE(at + 28);
    const extraLength = file.readUInt16LE(at + 30);
    const commentLength = file.readUInt16LE(at + 32);
    const local = file.readUInt32LE(at + 42);
    const name = file.toString('utf8', at + 46, at + 46 + nameLength);
    at += 46 + nameLength + extraLength + commentLength;
    if (local + 30 > file.length || file.readUInt32LE(local) !== LOCAL) throw new XlsxError('not-xlsx');
    const start = local + 30 + file.readUInt16LE(local + 26) + file.readUInt16LE(local + 28);
    if (compressed === 0xffffffff || start + compressed > file.length) throw new XlsxError('not-xlsx');
    if (method !== 0 && method !== 8) throw new XlsxError('not-xlsx');
    entries.set(name, { method, data: file.subarray(start, start + compressed) });
  }
  return entries;
}

/**
 * Checks that `file` is a zip whose entries unpack to at most `maxUnpacked` bytes in all, by
 * inflating each (never trusting the sizes the archive claims): a small file that would unpack to
 * gigabytes (a zip bomb) is refused before any parser reads it. Throws XlsxError.
 */
export function checkZipBound(file: Buffer, maxUnpacked: number): void {
  let budget = maxUnpacked;
  for (const { method, data } of zipEntries(file).values()) {
    if (method === 0) {
      budget -= data.length;
    } else {
      try {
        budget -= inflateRawSync(data, { maxOutputLength: Math.max(1, budget + 1) }).length;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' || err instanceof RangeError)
          throw new XlsxError('unpacks-too-large');
        throw new XlsxError('not-xlsx');
      }
    }
    if (budget < 0) throw new XlsxError('unpacks-too-large');
  }
}

/** An entry's unpacked content as a stream (inflated as it is read, never whole in memory). */
const entryStream = ({ method, data }: ZipEntry): Readable =>
  method === 0 ? Readable.from([data]) : Readable.from([data]).pipe(createInflateRaw());

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
  // A text the reader did not resolve: never read it as an empty cell (that would clear a field).
  if ('sharedString' in v) throw new XlsxError('not-xlsx');
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
 * The parts of exceljs's streaming WorkbookReader (4.4) this file drives itself. Its own `read()`
 * walks the zip with unzipper and, about once in 150 reads of a small file, loses an entry (the
 * workbook or the shared strings: then it throws, or a text cell comes back as
 * `{sharedString: n}`, which would read as empty). So the zip is walked here, from its central
 * directory, and each part handed to exceljs's parsers in the order they depend on each other.
 */
interface WorkbookParts {
  model?: { sheets?: { rId: string }[] };
  workbookRels?: { Id: string; Target: string }[];
  sharedStrings?: unknown[];
  _parseRels(entry: Readable): Promise<void>;
  _parseWorkbook(entry: Readable): Promise<void>;
  _parseSharedStrings(entry: Readable): AsyncGenerator<unknown>;
  _parseStyles(entry: Readable): Promise<void>;
  _parseWorksheet(
    iterator: AsyncIterable<unknown>,
    sheetNo: string,
  ): Generator<{ eventType: string; value: ExcelJS.stream.xlsx.WorksheetReader }>;
}

/** Where a relationship's target lives in the zip (`worksheets/sheet1.xml` or `/xl/...`). */
const partPath = (target: string) => (target.startsWith('/') ? target.slice(1) : `xl/${target}`);

/**
 * The rows of the first sheet of an xlsx (the workbook's first, whatever its name), in order, with
 * shared strings and styles resolved (so date cells come as dates). Empty rows are skipped. Throws
 * XlsxError('not-xlsx') when the file is no workbook.
 */
export async function* firstSheetRows(file: Buffer): AsyncGenerator<SheetRow> {
  let sheet: ExcelJS.stream.xlsx.WorksheetReader;
  try {
    const entries = zipEntries(file);
    const part = (path: string) => {
      const entry = entries.get(path);
      return entry ? entryStream(entry) : null;
    };
    const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([]), {
      sharedStrings: 'cache',
      styles: 'cache',
      hyperlinks: 'ignore',
      worksheets: 'emit',
      entries: 'ignore',
    }) as unknown as WorkbookParts;
    const rels = part('xl/_rels/workbook.xml.rels');
    const workbook = part('xl/workbook.xml');
    if (!rels || !workbook) throw new XlsxError('not-xlsx');
    await reader._parseRels(rels);
    await reader._parseWorkbook(workbook);
    const strings = part('xl/sharedStrings.xml');
    if (strings) for await (const _ of reader._parseSharedStrings(strings));
    else reader.sharedStrings = [];
    const styles = part('xl/styles.xml');
    if (styles) await reader._parseStyles(styles);
    const first = reader.model?.sheets?.[0];
    const target = reader.workbookRels?.find((rel) => rel.Id === first?.rId)?.Target;
    const path = target && partPath(target);
    const sheetNo = path && /^xl\/worksheets\/sheet(\d+)\.xml$/.exec(path)?.[1];
    const content = path && part(path);
    if (!sheetNo || !content) throw new XlsxError('not-xlsx');
    const emitted = [...reader._parseWorksheet(content, sheetNo)][0];
    if (!emitted) throw new XlsxError('not-xlsx');
    sheet = emitted.value;
  } catch (err) {
    if (err instanceof XlsxError) throw err;
    throw new XlsxError('not-xlsx');
  }
  try {
    for await (const row of sheet) {
      const cells: (ExcelJS.Cell | undefined)[] = [];
      row.eachCell({ includeEmpty: false }, (cell, col) => {
        cells[col] = cell;
      });
      yield { number: row.number, cells };
    }
  } catch (err) {
    if (err instanceof XlsxError) throw err;
    throw new XlsxError('not-xlsx');
  }
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
