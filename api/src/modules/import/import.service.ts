/**
 * Import from Excel (docs/rules.md#import): a file read into rows, each row checked against the
 * entities' own input schemas (the forms' rules) merged over what is stored, then a plan of creates
 * and updates applied through the entities' services (clientCertificateService, the scheme service,
 * trainingService) in the caller's one transaction, every write audited with source `import`.
 *
 * `planImport` reads and checks only; `applyPlan` writes. A file with any invalid cell answers all
 * of them (ImportInvalid) and nothing is written.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import type * as yup from 'yup';
import {
  headerKey,
  IMPORT_COLUMNS,
  IMPORT_MAX_ROWS,
  IMPORT_MESSAGES,
  IMPORT_SCHEMAS,
  type ImportCellError,
  type ImportColumn,
  type ImportKind,
  type ImportMode,
  type ImportResult,
  importStatus,
  importValidForType,
  numberKey,
  parseImportDate,
} from '@sertifikasi/shared-contracts';
import type { Executor } from '../../db';
import {
  accreditedBodies,
  certificationTypes,
  clientCertificates,
  schemes,
  trainingCertificates,
} from '../../db/schema';
import { refused } from '../../lib/errors';
import { firstSheetRows, readCell, type SheetRow } from '../../lib/xlsx';
import type { ServiceContext } from '../../services/context';
import { clientCertificateService } from '../client-certificates/client-certificates.service';
import { schemeService } from '../schemes/schemes.service';
import { trainingService } from '../training/training.service';
import { breather } from '../../lib/breathe';

/** A file with invalid cells: every one of them, sorted by row then column. */
export class ImportInvalid extends Error {
  constructor(readonly rows: ImportCellError[]) {
    super(IMPORT_MESSAGES.invalid);
    this.name = 'ImportInvalid';
  }
}

type Values = Record<string, unknown>;

/** Where each of the file's columns sits in a row's arrays (one per file, shared by its rows). */
interface Layout {
  columns: ImportColumn[];
  at: Map<ImportColumn, number>;
}

/**
 * A row's cells by column, in a plain array (50,000 rows of 27 cells: a Map per row would cost
 * several times the memory). `undefined` marks a cell that had an error.
 */
class Cells<T> {
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
interface ParsedRow {
  row: number;
  /** Values as the schemas take them (text, number, `YYYY-MM-DD`, an id, null when empty). */
  values: Cells<unknown>;
  /** What each cell showed, for error reports. */
  texts: Cells<string>;
}

/** The file read: the columns it holds and its rows. */
interface ParsedFile {
  /** The file's columns, in the file's order. */
  columns: ImportColumn[];
  rows: ParsedRow[];
}

/** Lookups of the company, for 'Sertifikat' and 'Akreditasi' cells. */
interface Lookups {
  types: Map<string, string>;
  bodies: Map<string, string>;
}

class Collector {
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
async function readFile(
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
async function loadLookups(db: Executor, companyId: string): Promise<Lookups> {
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
    .select({ id: accreditedBodies.id, name: accreditedBodies.name })
    .from(accreditedBodies)
    .where(eq(accreditedBodies.company_id, companyId))) {
    bodies.set(numberKey(b.name), b.id);
  }
  return { types, bodies };
}

/** Rows whose trimmed, lower-cased `column` is one of `keys`, read in batches. */
async function byKeys<R>(
  keys: string[],
  read: (batch: string[]) => Promise<R[]>,
  batchSize = 5000,
): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < keys.length; i += batchSize) out.push(...(await read(keys.slice(i, i + batchSize))));
  return out;
}
const keyOf = (column: Parameters<typeof sql>[1]) => sql<string>`lower(trim(${column}))`;

/** A value for an error report. */
const shown = (value: unknown): string =>
  typeof value === 'string' ? value : value == null ? '' : JSON.stringify(value);

/** A cell's value as a record's number (text), or '' when it holds none. */
const keyText = (value: unknown): string =>
  typeof value === 'string' ? numberKey(value) : typeof value === 'number' ? String(value) : '';

/** The fields of the file's columns for one entity, from a row. */
function fieldsOf(row: ParsedRow, entity: ImportColumn['entity']): Values {
  const out: Values = {};
  for (const [column, value] of row.values) if (column.entity === entity) out[column.field] = value;
  return out;
}

/**
 * Validates `input` with the entity's schema (all errors); each error lands on the column of its
 * field (or, for a field the file does not hold, on the field's own label).
 */
function validate(
  schema: yup.AnyObjectSchema,
  input: Values,
  row: ParsedRow,
  columns: ImportColumn[],
  entity: ImportColumn['entity'],
  errors: Collector,
): Values | null {
  try {
    return schema.validateSync(input, { abortEarly: false }) as Values;
  } catch (e) {
    const inner = (e as yup.ValidationError).inner.length
      ? (e as yup.ValidationError).inner
      : [e as yup.ValidationError];
    for (const err of inner) {
      const field = err.path ?? '';
      const column = columns.find((c) => c.entity === entity && c.field === field);
      const header = column?.header ?? field;
      if (errors.has(row.row, header)) continue;
      const text = column ? (row.texts.get(column) ?? '') : shown(input[field]);
      errors.add(row.row, header, text, err.message);
    }
    return null;
  }
}

/**
 * A record's number in the file differing from the stored one only in case or spaces is the same
 * number (that is how it was matched): the stored spelling stays.
 */
function keepStoredKey(input: Values, field: string, stored: string | null | undefined): void {
  if (stored && typeof input[field] === 'string' && numberKey(input[field]) === numberKey(stored))
    input[field] = stored;
}

/** True when one of `fields` of the validated input differs from the stored row's. */
function differs(input: Values, stored: Values, fields: Iterable<[string, string]>): boolean {
  for (const [inputField, storedField] of fields) {
    const a = input[inputField] ?? null;
    const b = stored[storedField] ?? null;
    if (a !== b) return true;
  }
  return false;
}

// ---- company-certificate file --------------------------------------------------------------

type ClientRow = typeof clientCertificates.$inferSelect;
type SchemeRow = typeof schemes.$inferSelect;
type TrainingRow = typeof trainingCertificates.$inferSelect;

/** Client input fields the file may hold; stored under the same names. */
const CLIENT_FIELDS = IMPORT_COLUMNS['company-certificate']
  .filter((c) => c.entity === 'client')
  .map((c) => c.field);
/** Scheme input field -> stored column. */
const SCHEME_STORED: Record<string, string> = {
  certification_id: 'certification_id',
  cert_number: 'cert_number',
  status: 'status',
  issue_date: 'issue_date',
  issue_date2: 'issue_date2',
  valid_for: 'valid_for',
  valid_for_type: 'valid_for_type',
  valid_date: 'valid_date',
  surveillance_date: 'surveillance_date',
  accredited_id: 'accredited_id',
  desc: 'description',
};
/** A stand-in client id while checking a scheme of a client the file creates. */
const NEW_CLIENT = '00000000-0000-4000-8000-000000000000';

interface ClientPlan {
  row: number;
  existing: ClientRow | null;
  input: Values;
  changed: boolean;
  schemes: SchemePlan[];
}
interface SchemePlan {
  existing: SchemeRow | null;
  input: Values;
  changed: boolean;
}
interface TrainingPlan {
  existing: TrainingRow | null;
  input: Values;
  changed: boolean;
}

export type ImportPlan =
  | { kind: 'company-certificate'; rows: number; clients: ClientPlan[] }
  | { kind: 'training-certificate'; rows: number; trainings: TrainingPlan[] };

function storedClientInput(row: ClientRow): Values {
  const out: Values = { company_id: row.company_id };
  for (const f of CLIENT_FIELDS) out[f] = (row as unknown as Values)[f] ?? null;
  return out;
}

function storedSchemeInput(row: SchemeRow): Values {
  const out: Values = {
    certificate_id: row.certificate_id,
    company_id: row.company_id,
    is_accredited: row.is_accredited ? 'true' : 'false',
  };
  for (const [field, stored] of Object.entries(SCHEME_STORED))
    out[field] = (row as unknown as Values)[stored] ?? null;
  return out;
}

async function planCompanyFile(
  db: Executor,
  companyId: string,
  file: ParsedFile,
  errors: Collector,
): Promise<ImportPlan> {
  const { columns, rows } = file;
  const clientNumber = columns.find((c) => c.entity === 'client' && c.field === 'certificate_number')!;
  const schemeNumber = columns.find((c) => c.entity === 'scheme' && c.field === 'cert_number');
  const clientColumns = columns.filter((c) => c.entity === 'client');
  const schemeColumns = columns.filter((c) => c.entity === 'scheme');

  // The records the file names, read in batches.
  const clientKeys = [...new Set(rows.map((r) => keyText(r.values.get(clientNumber))))];
  const existingClients = new Map(
    (
      await byKeys(clientKeys, (batch) =>
        db
          .select()
          .from(clientCertificates)
          .where(
            and(
              eq(clientCertificates.company_id, companyId),
              inArray(keyOf(clientCertificates.certificate_number), batch),
            ),
          ),
      )
    ).map((c) => [numberKey(c.certificate_number), c]),
  );
  const schemeKeys = schemeNumber
    ? [
        ...new Set(
          rows.map((r) => r.values.get(schemeNumber)).filter((v): v is string => typeof v === 'string'),
        ),
      ].map(numberKey)
    : [];
  const existingSchemes = new Map(
    (
      await byKeys(schemeKeys, (batch) =>
        db
          .select()
          .from(schemes)
          .where(inArray(keyOf(schemes.cert_number), batch)),
      )
    ).map((s) => [numberKey(s.cert_number ?? ''), s]),
  );

  const clients = new Map<string, ClientPlan & { firstValues: Values }>();
  const schemeRows = new Map<string, number>();
  const breathe = breather(100);
  for (const row of rows) {
    await breathe();
    const key = keyText(row.values.get(clientNumber));
    const fileValues = fieldsOf(row, 'client');
    let plan = clients.get(key);
    if (!plan) {
      const existing = key ? (existingClients.get(key) ?? null) : null;
      const merged = {
        ...(existing ? storedClientInput(existing) : {}),
        ...fileValues,
        company_id: companyId,
      };
      const input = validate(IMPORT_SCHEMAS.client, merged, row, columns, 'client', errors);
      if (input && existing) keepStoredKey(input, 'certificate_number', existing.certificate_number);
      const changed =
        !!input &&
        !!existing &&
        differs(
          input,
          existing,
          clientColumns.map((c) => [c.field, c.field]),
        );
      plan = { row: row.row, existing, input: input ?? {}, changed, schemes: [], firstValues: fileValues };
      if (key) clients.set(key, plan);
    } else {
      // Rows of one client agree on its columns.
      for (const column of clientColumns) {
        if (!row.values.has(column) || !Object.hasOwn(plan.firstValues, column.field)) continue;
        const a = row.values.get(column);
        const b = plan.firstValues[column.field];
        const same = typeof a === 'string' && typeof b === 'string' ? a.trim() === b.trim() : a === b;
        if (!same)
          errors.add(
            row.row,
            column.header,
            row.texts.get(column) ?? '',
            IMPORT_MESSAGES.disagrees(plan.row),
          );
      }
    }

    // The scheme of the row, unless every scheme column is empty (the client alone).
    const schemeValues = fieldsOf(row, 'scheme');
    if (!schemeColumns.some((c) => (row.texts.get(c) ?? '') !== '')) continue;
    const number = typeof schemeValues.cert_number === 'string' ? numberKey(schemeValues.cert_number) : '';
    const existing = number ? (existingSchemes.get(number) ?? null) : null;
    if (number) {
      const first = schemeRows.get(number);
      if (first !== undefined) {
        errors.add(
          row.row,
          schemeNumber!.header,
          row.texts.get(schemeNumber!) ?? '',
          IMPORT_MESSAGES.repeated(first),
        );
        continue;
      }
      schemeRows.set(number, row.row);
      if (existing && existing.company_id !== companyId) {
        errors.add(
          row.row,
          schemeNumber!.header,
          row.texts.get(schemeNumber!) ?? '',
          IMPORT_MESSAGES.otherCompany,
        );
        continue;
      }
      if (existing && existing.certificate_id !== plan.existing?.id) {
        errors.add(
          row.row,
          schemeNumber!.header,
          row.texts.get(schemeNumber!) ?? '',
          IMPORT_MESSAGES.otherClient,
        );
        continue;
      }
    }
    if ('accredited_id' in schemeValues)
      schemeValues.is_accredited = schemeValues.accredited_id ? 'true' : 'false';
    const merged = {
      is_accredited: 'false',
      ...(existing ? storedSchemeInput(existing) : {}),
      ...schemeValues,
      certificate_id: plan.existing?.id ?? NEW_CLIENT,
      company_id: companyId,
    };
    const input = validate(IMPORT_SCHEMAS.scheme, merged, row, columns, 'scheme', errors);
    if (!input) continue;
    if (existing) keepStoredKey(input, 'cert_number', existing.cert_number);
    const fields = schemeColumns.map((c): [string, string] => [c.field, SCHEME_STORED[c.field]!]);
    const changed =
      !!existing &&
      (differs(input, existing, fields) || (input.is_accredited === 'true') !== existing.is_accredited);
    plan.schemes.push({ existing, input, changed });
  }
  return { kind: 'company-certificate', rows: rows.length, clients: [...clients.values()] };
}

// ---- training-certificate file ------------------------------------------------------------

const TRAINING_STORED: Record<string, string> = {
  certificate_number: 'certificate_number',
  name: 'name',
  training: 'training',
  location: 'location',
  date: 'date',
  desc: 'description',
  certification_id: 'certification_id',
};

async function planTrainingFile(
  db: Executor,
  companyId: string,
  file: ParsedFile,
  errors: Collector,
): Promise<ImportPlan> {
  const { columns, rows } = file;
  const numberColumn = columns.find((c) => c.field === 'certificate_number')!;
  const keys = [...new Set(rows.map((r) => keyText(r.values.get(numberColumn))))];
  const existing = new Map(
    (
      await byKeys(keys, (batch) =>
        db
          .select()
          .from(trainingCertificates)
          .where(inArray(keyOf(trainingCertificates.certificate_number), batch)),
      )
    ).map((t) => [numberKey(t.certificate_number), t]),
  );
  const seen = new Map<string, number>();
  const trainings: TrainingPlan[] = [];
  const fields = columns.map((c): [string, string] => [c.field, TRAINING_STORED[c.field]!]);
  const breathe = breather(100);
  for (const row of rows) {
    await breathe();
    const key = keyText(row.values.get(numberColumn));
    const text = row.texts.get(numberColumn) ?? '';
    if (key) {
      const first = seen.get(key);
      if (first !== undefined) {
        errors.add(row.row, numberColumn.header, text, IMPORT_MESSAGES.repeated(first));
        continue;
      }
      seen.set(key, row.row);
    }
    const current = key ? (existing.get(key) ?? null) : null;
    if (current && current.company_id !== companyId) {
      errors.add(row.row, numberColumn.header, text, IMPORT_MESSAGES.otherCompany);
      continue;
    }
    const stored: Values = current
      ? Object.fromEntries(
          Object.entries(TRAINING_STORED).map(([f, s]) => [f, (current as unknown as Values)[s] ?? null]),
        )
      : {};
    const input = validate(
      IMPORT_SCHEMAS.training,
      { ...stored, ...fieldsOf(row, 'training'), company_id: companyId },
      row,
      columns,
      'training',
      errors,
    );
    if (!input) continue;
    if (current) keepStoredKey(input, 'certificate_number', current.certificate_number);
    trainings.push({
      existing: current,
      input,
      changed: !!current && differs(input, current, fields),
    });
  }
  return { kind: 'training-certificate', rows: rows.length, trainings };
}

// ---- both ---------------------------------------------------------------------------------

/**
 * Reads the file and checks every row against what is stored (in `db`, the transaction the apply
 * will write in). Throws ImportInvalid with every invalid cell, or a 422 for a file that cannot
 * be read as an import of `kind`.
 */
export async function planImport(
  db: Executor,
  kind: ImportKind,
  companyId: string,
  file: Buffer,
): Promise<ImportPlan> {
  const errors = new Collector();
  const lookups = await loadLookups(db, companyId);
  const parsed = await readFile(kind, file, lookups, errors);
  if (parsed.rows.length === 0 && errors.errors.length === 0) throw refused(IMPORT_MESSAGES.noRows);
  const order = new Map(parsed.columns.map((c, i) => [c.header, i]));
  const plan =
    kind === 'company-certificate'
      ? await planCompanyFile(db, companyId, parsed, errors)
      : await planTrainingFile(db, companyId, parsed, errors);
  if (errors.errors.length) {
    throw new ImportInvalid(
      errors.errors.sort(
        (a, b) => a.row - b.row || (order.get(a.column) ?? 99) - (order.get(b.column) ?? 99),
      ),
    );
  }
  return plan;
}

/** created/updated/unchanged of a plan, as the API answers them. */
export function countPlan(plan: ImportPlan, mode: ImportMode): ImportResult {
  const tally = <T extends { existing: unknown; changed: boolean }>(items: T[]) => ({
    created: items.filter((i) => !i.existing).length,
    updated: items.filter((i) => i.existing && i.changed).length,
    unchanged: items.filter((i) => i.existing && !i.changed).length,
  });
  if (plan.kind === 'training-certificate') return { mode, rows: plan.rows, ...tally(plan.trainings) };
  const c = tally(plan.clients);
  const s = tally(plan.clients.flatMap((p) => p.schemes));
  return {
    mode,
    rows: plan.rows,
    created: { clients: c.created, schemes: s.created },
    updated: { clients: c.updated, schemes: s.updated },
    unchanged: { clients: c.unchanged, schemes: s.unchanged },
  };
}

/** True when applying the plan changes a stored record (the `:edit` permission is needed). */
export function planUpdates(plan: ImportPlan): boolean {
  if (plan.kind === 'training-certificate') return plan.trainings.some((t) => t.changed);
  return plan.clients.some((c) => c.changed || c.schemes.some((s) => s.changed));
}

/**
 * Writes the plan through the services, in `ctx.tx`: clients first (a new client's id is what its
 * new schemes are written under), then their schemes; new training certificates get their QR from
 * trainingService as on create. Unchanged records are not touched.
 */
export async function applyPlan(ctx: ServiceContext, plan: ImportPlan): Promise<void> {
  // A turn of the event loop now and then: a long import must not hold the process (other
  // requests, signals) until its last row.
  const breathe = breather(200);
  if (plan.kind === 'training-certificate') {
    for (const t of plan.trainings) {
      await breathe();
      if (!t.existing) await trainingService.create(ctx, t.input as never);
      else if (t.changed) await trainingService.update(ctx, t.existing.id, t.input as never);
    }
    return;
  }
  for (const client of plan.clients) {
    await breathe();
    let id = client.existing?.id;
    if (!id) id = (await clientCertificateService.create(ctx, client.input as never)).id;
    else if (client.changed) await clientCertificateService.update(ctx, id, client.input as never);
    for (const s of client.schemes) {
      const input = { ...s.input, certificate_id: id } as never;
      if (!s.existing) await schemeService.create(ctx, input);
      else if (s.changed) await schemeService.update(ctx, s.existing.id, input);
    }
  }
}
