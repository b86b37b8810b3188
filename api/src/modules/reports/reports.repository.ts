/**
 * The three reports' queries (docs/rules.md#dashboard-and-reports), one file each:
 * company-report.repository.ts (clients), scheme-report.repository.ts (schemes) and
 * training-report.repository.ts (training certificates). A page for the table (offset), and for
 * the export the same rows in the same order read in batches by keyset ("the rows after the last one
 * seen"), so an export of any size holds one batch at a time. An export reads of each row only
 * what its columns are written from and its keyset's keys (`jsonRows`, db/keyset.ts): on the
 * embedded database every field read costs the thread that writes the workbook.
 *
 * Here: what they share, and the names the workbook's Filter sheet shows.
 */
import { and, eq, gte, inArray, lte, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { CompanyScope, DateRange } from '@sertifikasi/shared-contracts';
import type { Executor } from '../../db';
import {
  type accreditationBodies,
  type certificationTypes,
  type clientCertificates,
  companies,
} from '../../db/schema';
import { inCompanies } from '../../lib/list';

/** A date range as a condition on a date column; none when no range was chosen. */
export function inDateRange(column: AnyPgColumn, range: DateRange | null): SQL | undefined {
  if (!range) return undefined;
  return and(range.from ? gte(column, range.from) : undefined, range.to ? lte(column, range.to) : undefined);
}

// ---------------------------------------------------------------------------------------------
// Names for the workbook's Filter sheet
// ---------------------------------------------------------------------------------------------

type NamedTable = typeof certificationTypes | typeof accreditationBodies | typeof clientCertificates;

/** Names of the chosen records within the scope, in the order chosen (unknown ids are left out). */
export async function namesOf(
  db: Executor,
  table: NamedTable,
  ids: readonly string[],
  scope: CompanyScope,
): Promise<string[]> {
  if (!ids.length) return [];
  const rows = await db
    .select({ id: table.id, name: table.name })
    .from(table)
    .where(and(inArray(table.id, [...ids]), inCompanies(table.company_id, scope)));
  const byId = new Map(rows.map((r) => [r.id, r.name]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

export async function companyName(db: Executor, id: string): Promise<string | null> {
  const [row] = await db.select({ name: companies.name }).from(companies).where(eq(companies.id, id));
  return row?.name ?? null;
}
