/**
 * Planning an import (docs/product.md, "Import"): each row of a read file checked against the
 * entities' own input schemas (the forms' rules, from shared-contracts) merged over what is stored,
 * into a plan of creates and updates typed by the services' inputs. Reads only; a file with any
 * invalid cell throws ImportInvalid with every one of them.
 *
 * Long file: both kinds' plans use the row checks and the merge over stored records above them;
 * kept in one file so that one rule for both kinds stays in one place.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import type * as yup from 'yup';
import {
  type ClientCertificateInput,
  IMPORT_COLUMNS,
  IMPORT_MESSAGES,
  IMPORT_SCHEMAS,
  type ImportColumn,
  type ImportKind,
  type ImportMode,
  type ImportResult,
  numberKey,
  type SchemeInput,
  type TrainingCertificateInput,
} from '@sertifikasi/shared-contracts';
import type { Executor } from '../../db';
import { clientCertificates, schemes, trainingCertificates } from '../../db/schema';
import { breather } from '../../lib/breathe';
import { refused } from '../../lib/errors';
import {
  Collector,
  ImportInvalid,
  loadLookups,
  type ParsedFile,
  type ParsedRow,
  readFile,
  type Values,
} from './import.read';

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
function validate<S extends yup.AnyObjectSchema>(
  schema: S,
  input: Values,
  row: ParsedRow,
  columns: ImportColumn[],
  entity: ImportColumn['entity'],
  errors: Collector,
): yup.InferType<S> | null {
  try {
    return schema.validateSync(input, { abortEarly: false });
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
function keepStoredKey<I extends Record<F, string>, F extends string>(
  input: I,
  field: F,
  stored: string | null | undefined,
): void {
  if (stored && numberKey(input[field]) === numberKey(stored)) input[field] = stored as I[F];
}

/** A value to compare: lists (sector codes) by their items. */
const comparable = (value: unknown): unknown =>
  Array.isArray(value) ? JSON.stringify(value) : (value ?? null);

/** True when one of `fields` of the validated input differs from the stored row's. */
function differs(input: object, stored: object, fields: Iterable<[string, string]>): boolean {
  for (const [inputField, storedField] of fields) {
    const a = comparable((input as Values)[inputField]);
    const b = comparable((stored as Values)[storedField]);
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
  original_issue_date: 'original_issue_date',
  issue_date2: 'issue_date2',
  valid_for: 'valid_for',
  valid_for_type: 'valid_for_type',
  valid_date: 'valid_date',
  surveillance_date: 'surveillance_date',
  decision_date: 'decision_date',
  accredited_id: 'accredited_id',
  desc: 'description',
  scope: 'scope',
  sector_codes: 'sector_codes',
  // Not a column of the file: the covered sites are kept as stored (docs/rules.md#import).
  sites: 'sites',
};
/** A stand-in client id while checking a scheme of a client the file creates. */
const NEW_CLIENT = '00000000-0000-4000-8000-000000000000';

/** A client of the file: its first row, how many rows it spans, the stored record, the service input. */
export interface ClientPlan {
  row: number;
  rows: number;
  existing: ClientRow | null;
  input: ClientCertificateInput;
  changed: boolean;
  schemes: SchemePlan[];
}
/** A scheme of a row; its `certificate_id` is the client's once the client is written. */
export interface SchemePlan {
  row: number;
  existing: SchemeRow | null;
  input: SchemeInput;
  changed: boolean;
}
/** A training certificate of a row. */
export interface TrainingPlan {
  row: number;
  existing: TrainingRow | null;
  input: TrainingCertificateInput;
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

  // A client whose own columns are invalid is still planned (input null), so its rows' schemes are
  // checked too; a plan with errors is never applied.
  type Draft = Omit<ClientPlan, 'input'> & { input: ClientCertificateInput | null; firstValues: Values };
  const clients = new Map<string, Draft>();
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
      plan = { row: row.row, rows: 1, existing, input, changed, schemes: [], firstValues: fileValues };
      if (key) clients.set(key, plan);
    } else {
      plan.rows += 1;
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
    plan.schemes.push({ row: row.row, existing, input, changed });
  }
  const planned: ClientPlan[] = [];
  for (const { firstValues: _, input, ...draft } of clients.values())
    if (input) planned.push({ ...draft, input });
  return { kind: 'company-certificate', rows: rows.length, clients: planned };
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
      row: row.row,
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
