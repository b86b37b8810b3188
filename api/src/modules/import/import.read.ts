/**
 * Reading an import file (docs/product.md, "Import"): the first sheet's header row matched to the
 * kind's columns, then each data row's cells turned into the values the entities' input schemas take
 * (dates, numbers, statuses, the company's certification types and accreditation bodies by name).
 * A cell that cannot be read is collected with its row, column and message; header problems are a
 * 422 straight away.
 */
import { eq } from 'drizzle-orm';
import {
  headerKey,
  IMPORT_COLUMNS,
  IMPORT_MAX_ROWS,
  IMPORT_MESSAGES,
  type ImportCellError,
  type ImportColumn,
  type ImportKind,
  importStatus,
  importValidForType,
  numberKey,
  parseSectorCodes,
  parseImportDate,
} from '@sertifikasi/shared-contracts';
import type { Executor } from '../../db';
import { accreditationBodies, certificationTypes } from '../../db/schema';
import { breather } from '../../lib/breathe';
import { refused } from '../../lib/errors';
import { firstSheetRows, readCell, type SheetRow } from '../../lib/xlsx';

/** A file with invalid cells: every one of them, sorted by row then column. */
export class ImportInvalid extends Error {
  constructor(readonly rows: ImportCellError[]) {
    super(IMPORT_MESSAGES.invalid);
    this.name = 'ImportInvalid';
  }
}

export type Values = Record<string, unknown>;

/** Where each of the file's columns sits in a row's arrays (one per file, shared by its rows). */
interface Layout {
  columns: ImportColumn[];
  at: Map<ImportColumn, number>;
}

/**
 * A row's cells by column, in a plain array (50,000 rows of 27 cells: a Map per row would cost
 * several times the memory). `undefined` marks a cell that had an error.
 */
export class Cells<T> {
  constructor(
    private readonly layout: Layout,
    private readonly items: (T | undefined)[],
  ) {}
  get(column: ImportColumn): T | undefined {
    const i = this.layout.at.get(column);
    return i === undefined ? undefined : this.items[i];
  }
  has(column: ImportColumn): boolean {
    return this.get(column) !== undefined;
  }
  *[Symbol.iterator](): Generator<[ImportColumn, T]> {
    for (let i = 0; i < this.items.length; i++) {
      const v = this.items[i];
      if (v !== undefined) yield [this.layout.columns[i]!, v];
    }
  }
}

/** A data row: its sheet row number, the values of the file's columns and what each cell showed. */
export interface ParsedRow {
  row: number;
  /** Values as the schemas take them (text, number, `YYYY-MM-DD`, an id, null when empty). */
  values: Cells<unknown>;
  /** What each cell showed, for error reports. */
  texts: Cells<string>;
}

/** The file read: the columns it holds and its rows. */
export interface ParsedFile {
  /** The file's columns, in the file's order. */
  columns: ImportColumn[];
  rows: ParsedRow[];
}

/** Lookups of the company, for 'Sertifikat' and 'Akreditasi' cells. */
export interface Lookups {
  types: Map<string, string>;
  bodies: Map<string, string>;
}

export class Collector {
  readonly errors: ImportCellError[] = [];
  private readonly cells = new Set<string>();
  add(row: number, column: string, value: string, message: string) {
    this.errors.push({ row, column, value, message });
    this.cells.add(`${row}\u0000${column}`);
  }
  /** True when the cell already has an error (a rule need not word it again). */
  has(row: number, column: string) {
    return this.cells.has(`${row}\u0000${column}`);
  }
}

/** Rows of the first sheet turned into parsed rows; header problems are 422 straight away. */
export async function readFile(
  kind: ImportKind,
  file: Buffer,
  lookups: Lookups,
  errors: Collector,
): Promise<ParsedFile> {
  const known = new Map(IMPORT_COLUMNS[kind].map((c) => [headerKey(c.header), c]));
  let header: Map<number, ImportColumn> | null = null;
  let layout: Layout | null = null;
  const rows: ParsedRow[] = [];
  const breathe = breather(100);
  for await (const sheetRow of firstSheetRows(file)) {
    await breathe();
    if (!header || !layout) {
      header = readHeader(sheetRow, known);
      const columns = [...header.entries()].sort((a, b) => a[0] - b[0]).map(([, c]) => c);
      layout = { columns, at: new Map(columns.map((c, i) => [c, i])) };
      const held = new Set(header.values());
      const missing = IMPORT_COLUMNS[kind].filter((c) => c.required === 'column' && !held.has(c));
      if (missing.length) throw refused(IMPORT_MESSAGES.missingColumns(missing.map((c) => c.header)));
      continue;
    }
    if (rows.length >= IMPORT_MAX_ROWS) throw refused(IMPORT_MESSAGES.tooManyRows(IMPORT_MAX_ROWS));
    const parsed = parseRow(sheetRow, header, layout, lookups, errors);
    if (parsed) rows.push(parsed);
  }
  if (!layout) throw refused(IMPORT_MESSAGES.noHeader);
  return { columns: layout.columns, rows };
}

function readHeader(row: SheetRow, known: Map<string, ImportColumn>): Map<number, ImportColumn> {
  const header = new Map<number, ImportColumn>();
  const seen = new Set<ImportColumn>();
  row.cells.forEach((cell, index) => {
    const { value } = readCell(cell);
    if (typeof value !== 'string') return;
    const column = known.get(headerKey(value));
    if (!column) return; // Columns the import does not know are left alone.
    if (seen.has(column)) throw refused(IMPORT_MESSAGES.duplicateColumn(column.header));
    seen.add(column);
    header.set(index, column);
  });
  if (header.size === 0) throw refused(IMPORT_MESSAGES.noHeader);
  return header;
}

/** One cell as its field takes it; a message when it cannot be one. */
function cellValue(
  column: ImportColumn,
  cell: ReturnType<typeof readCell>,
  lookups: Lookups,
): { value: unknown } | { message: string } {
  if (cell.problem === 'formula-no-result') return { message: IMPORT_MESSAGES.formulaNoResult };
  if (cell.problem === 'error') return { message: IMPORT_MESSAGES.cellError };
  const { value } = cell;
  if (value === null) return { value: null };
  const text = value instanceof Date ? cell.text : String(value);
  switch (column.kind) {
    case 'date': {
      if (value instanceof Date) return { value: cell.text };
      const date = typeof value === 'string' ? parseImportDate(value) : null;
      return date ? { value: date } : { message: IMPORT_MESSAGES.date(column.header) };
    }
    case 'integer':
      // Number cells and plain digits; anything else goes to the field's rule to be refused.
      return { value: typeof value === 'number' ? value : /^\s*\d+\s*$/.test(text) ? Number(text) : text };
    case 'status':
      return { value: importStatus(text) };
    case 'validForType':
      return { value: importValidForType(text) };
    case 'type': {
      const id = lookups.types.get(numberKey(text));
      return id ? { value: id } : { message: IMPORT_MESSAGES.typeNotFound };
    }
    case 'body': {
      const id = lookups.bodies.get(numberKey(text));
      return id ? { value: id } : { message: IMPORT_MESSAGES.bodyNotFound };
    }
    case 'sectors': {
      const codes = parseSectorCodes(text);
      return codes ? { value: codes } : { message: IMPORT_MESSAGES.sectors };
    }
    default:
      return { value: text };
  }
}

function parseRow(
  sheetRow: SheetRow,
  header: Map<number, ImportColumn>,
  layout: Layout,
  lookups: Lookups,
  errors: Collector,
): ParsedRow | null {
  const values = new Array<unknown>(layout.columns.length);
  const texts = new Array<string>(layout.columns.length);
  let filled = false;
  for (const [index, column] of header) {
    const at = layout.at.get(column)!;
    const cell = readCell(sheetRow.cells[index]);
    texts[at] = cell.text;
    if (cell.value !== null || cell.problem) filled = true;
    const read = cellValue(column, cell, lookups);
    if ('message' in read) errors.add(sheetRow.number, column.header, cell.text, read.message);
    else values[at] = read.value;
  }
  return filled
    ? { row: sheetRow.number, values: new Cells(layout, values), texts: new Cells(layout, texts) }
    : null;
}

/** The company's certification types (by name and by code) and accreditation bodies (by name). */
export async function loadLookups(db: Executor, companyId: string): Promise<Lookups> {
  const types = new Map<string, string>();
  for (const t of await db
    .select({ id: certificationTypes.id, name: certificationTypes.name, code: certificationTypes.code })
    .from(certificationTypes)
    .where(eq(certificationTypes.company_id, companyId))) {
    types.set(numberKey(t.code), t.id);
  }
  // A name wins over another type's code.
  for (const t of await db
    .select({ id: certificationTypes.id, name: certificationTypes.name })
    .from(certificationTypes)
    .where(eq(certificationTypes.company_id, companyId))) {
    types.set(numberKey(t.name), t.id);
  }
  const bodies = new Map<string, string>();
  for (const b of await db
    .select({ id: accreditationBodies.id, name: accreditationBodies.name })
    .from(accreditationBodies)
    .where(eq(accreditationBodies.company_id, companyId))) {
    bodies.set(numberKey(b.name), b.id);
  }
  return { types, bodies };
}
