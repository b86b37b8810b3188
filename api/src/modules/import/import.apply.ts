/**
 * Applying an import plan (docs/product.md, "Import"): through the same services as a form save
 * (clientCertificateService, the scheme service, trainingCertificateService), so every rule, the audit (source
 * `import`), the status history, the register counts and the signed QR follow as on a form. The plan
 * is applied in chunks (`chunksOf`), each chunk through the services' batch writes (createMany,
 * updateMany: references checked set-wise, a statement for many records) by the caller in its own
 * transaction together with the job's progress (import.service.ts).
 */
import {
  IMPORT_COLUMNS,
  IMPORT_MESSAGES,
  type ImportCellError,
  type ImportResult,
  type SchemeInput,
} from '@sertifikasi/shared-contracts';
import { UNIQUE_CONSTRAINTS } from '../../db/unique-constraints';
import { AppError, pgError } from '../../lib/errors';
import type { ServiceContext } from '../../services/context';
import { clientCertificateService } from '../client-certificates/client-certificates.service';
import { schemeService } from '../schemes/schemes.service';
import { trainingCertificateService } from '../training-certificates/training-certificates.service';
import type { ClientPlan, ImportPlan, SchemePlan, TrainingPlan } from './import.plan';

/** One planned record of the file (a client with its schemes, or a training certificate). */
export type PlanItem = ClientPlan | TrainingPlan;

/** The planned records, in the file's order. */
export const itemsOf = (plan: ImportPlan): PlanItem[] =>
  plan.kind === 'company-certificate' ? plan.clients : plan.trainings;

/** How many rows of the file an item covers (a client spans all its rows). */
export const rowsOf = (item: PlanItem): number => ('rows' in item ? item.rows : 1);

/** A key as PostgreSQL's unique indexes compare it: trimmed, any case. */
const keyOf = (value: unknown): string => (typeof value === 'string' ? value.trim().toLowerCase() : '');

/**
 * The cell of the file a refusal of `field` lands on: the column's header, the row of the record
 * (a scheme's own row when the field is a scheme's; with a duplicate key, the scheme holding that
 * key) and the value the file gave. A reference column (a type or body named in the file) shows no
 * value: the plan holds its id, not the file's words.
 */
function refusedCell(item: PlanItem, field: string, key?: string): Omit<ImportCellError, 'message'> {
  const kind = 'schemes' in item ? 'company-certificate' : 'training-certificate';
  const column = IMPORT_COLUMNS[kind].find((c) => c.field === field);
  let record: { row: number; input: object } = item;
  if (column?.entity === 'scheme' && 'schemes' in item && item.schemes.length) {
    const values = (s: SchemePlan) => s.input as unknown as Record<string, unknown>;
    record =
      item.schemes.find((s) => key !== undefined && keyOf(values(s)[field]) === key) ??
      item.schemes.find((s) => s.changed) ??
      item.schemes[0]!;
  }
  const value = (record.input as Record<string, unknown>)[field];
  const reference = column?.kind === 'type' || column?.kind === 'body';
  return {
    row: record.row,
    column: column?.header ?? field,
    value: reference || value == null ? '' : typeof value === 'string' ? value : JSON.stringify(value),
  };
}

/** PostgreSQL's words for a duplicate: `Key (...)=(value) already exists.` -> the value. */
const duplicateKey = (detail: string | undefined): string | undefined =>
  /\)=\((.*)\) already exists/
    .exec(detail ?? '')?.[1]
    ?.trim()
    .toLowerCase();

/** A refusal of one planned record by a service or a unique key, as an invalid cell of the file. */
export function rowRefusal(item: PlanItem, err: unknown): ImportCellError | null {
  if (err instanceof AppError && err.statusCode < 500) {
    const [field, message] = Object.entries(err.errors ?? {})[0] ?? ['', err.message];
    return { ...refusedCell(item, field), message };
  }
  const db = pgError(err);
  if (db?.code === '23505' && db.constraint) {
    const [field, message] = UNIQUE_CONSTRAINTS[db.constraint] ?? ['', IMPORT_MESSAGES.failed];
    return { ...refusedCell(item, field, duplicateKey(db.detail)), message };
  }
  return null;
}

/** What a chunk did: records created, updated, left alone (company file: clients and schemes). */
export interface Tally {
  clients: { created: number; updated: number; unchanged: number };
  schemes: { created: number; updated: number; unchanged: number };
}
export const emptyTally = (): Tally => ({
  clients: { created: 0, updated: 0, unchanged: 0 },
  schemes: { created: 0, updated: 0, unchanged: 0 },
});
export function addTally(a: Tally, b: Tally): Tally {
  const add = (x: Tally['clients'], y: Tally['clients']) => ({
    created: x.created + y.created,
    updated: x.updated + y.updated,
    unchanged: x.unchanged + y.unchanged,
  });
  return { clients: add(a.clients, b.clients), schemes: add(a.schemes, b.schemes) };
}
const note = (t: Tally['clients'], item: { existing: unknown; changed: boolean }) => {
  if (!item.existing) t.created += 1;
  else if (item.changed) t.updated += 1;
  else t.unchanged += 1;
};

/** The answer of an import from its tally (training certificates count under `clients`). */
export function resultOf(kind: ImportPlan['kind'], rows: number, tally: Tally): ImportResult {
  if (kind === 'training-certificate') return { mode: 'apply', rows, ...tally.clients };
  const pick = (k: 'created' | 'updated' | 'unchanged') => ({
    clients: tally.clients[k],
    schemes: tally.schemes[k],
  });
  return {
    mode: 'apply',
    rows,
    created: pick('created'),
    updated: pick('updated'),
    unchanged: pick('unchanged'),
  };
}

/**
 * Writes planned records through the services' batch writes, in `ctx.tx` (one chunk): the new
 * clients in one batch and the changed ones in another (a new client's id is what its new schemes
 * are written under), then the schemes likewise; training certificates likewise, new ones with
 * their QR as on create. Unchanged records are not touched. Answers what it did.
 */
export async function applyItems(ctx: ServiceContext, items: readonly PlanItem[]): Promise<Tally> {
  const tally = emptyTally();
  for (const item of items) note(tally.clients, item);
  const trainings = items.filter((i): i is TrainingPlan => !('schemes' in i));
  if (trainings.length) {
    await trainingCertificateService.createMany(
      ctx,
      trainings.filter((t) => !t.existing).map((t) => t.input),
    );
    await trainingCertificateService.updateMany(
      ctx,
      trainings.flatMap((t) => (t.existing && t.changed ? [{ id: t.existing.id, input: t.input }] : [])),
    );
  }
  const clients = items.filter((i): i is ClientPlan => 'schemes' in i);
  if (!clients.length) return tally;
  const fresh = clients.filter((c) => !c.existing);
  const created = await clientCertificateService.createMany(
    ctx,
    fresh.map((c) => c.input),
  );
  const idOf = new Map<ClientPlan, string>(fresh.map((c, i) => [c, created[i]!.id]));
  await clientCertificateService.updateMany(
    ctx,
    clients.flatMap((c) => (c.existing && c.changed ? [{ id: c.existing.id, input: c.input }] : [])),
  );
  const schemeCreates: SchemeInput[] = [];
  const schemeUpdates: { id: string; input: SchemeInput }[] = [];
  for (const client of clients) {
    const id = client.existing?.id ?? idOf.get(client)!;
    for (const scheme of client.schemes) {
      note(tally.schemes, scheme);
      const input = { ...scheme.input, certificate_id: id };
      if (!scheme.existing) schemeCreates.push(input);
      else if (scheme.changed) schemeUpdates.push({ id: scheme.existing.id, input });
    }
  }
  await schemeService.createMany(ctx, schemeCreates);
  await schemeService.updateMany(ctx, schemeUpdates);
  return tally;
}

/** The plan's items cut into chunks of about `rows` file rows each (a client is never cut). */
export function chunksOf(items: readonly PlanItem[], rows: number): PlanItem[][] {
  const out: PlanItem[][] = [];
  let chunk: PlanItem[] = [];
  let n = 0;
  for (const item of items) {
    chunk.push(item);
    n += rowsOf(item);
    if (n >= rows) {
      out.push(chunk);
      chunk = [];
      n = 0;
    }
  }
  if (chunk.length) out.push(chunk);
  return out;
}
