/**
 * Reads of the mail outbox as 'Log Notifikasi' shows it (docs/rules.md#notifications): one message,
 * and the page of a list, within the companies of a scope.
 */
import { and, desc, eq, getTableColumns, sql } from 'drizzle-orm';
import {
  type CompanyScope,
  type ListResponse,
  type Notification,
  type NotificationListQuery,
} from '@sertifikasi/shared-contracts';
import type { Executor } from '../../db';
import { companies, mailOutbox } from '../../db/schema';
import { inCompanies, listPage, searchAny } from '../../lib/list';

export type MessageRow = typeof mailOutbox.$inferSelect & { company_name: string | null };

export const toNotification = (row: MessageRow): Notification => ({
  id: row.id,
  company_id: row.company_id,
  company: row.company_id && row.company_name ? { id: row.company_id, name: row.company_name } : null,
  recipient: row.recipient,
  subject: row.subject,
  kind: row.kind,
  state: row.state as Notification['state'],
  attempts: row.attempts,
  last_error: row.last_error,
  next_attempt_at: row.next_attempt_at.toISOString(),
  sent_at: row.sent_at?.toISOString() ?? null,
  created_at: row.created_at.toISOString(),
});

/**
 * Messages of the companies in `scope`; a message about several companies (company null) only
 * for scope ALL.
 */
const inScope = (scope: CompanyScope) => inCompanies(mailOutbox.company_id, scope);

const columns = { ...getTableColumns(mailOutbox), company_name: companies.name };

/** One message of `scope`, with its company's name; undefined outside it. */
export async function findMessage(
  db: Executor,
  id: string,
  scope: CompanyScope,
): Promise<MessageRow | undefined> {
  const [row] = await db
    .select(columns)
    .from(mailOutbox)
    .leftJoin(companies, eq(companies.id, mailOutbox.company_id))
    .where(and(eq(mailOutbox.id, id), inScope(scope)));
  return row;
}

/** A page of the messages of `scope`, newest first, filtered by state, kind and search. */
export async function listMessages(
  db: Executor,
  query: NotificationListQuery,
  scope: CompanyScope,
): Promise<ListResponse<Notification>> {
  const where = and(
    inScope(scope),
    query.state ? eq(mailOutbox.state, query.state) : undefined,
    query.kind ? eq(mailOutbox.kind, query.kind) : undefined,
    searchAny(query.search, [mailOutbox.recipient, mailOutbox.subject]),
  );
  return listPage(
    query,
    async () => {
      const [row] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(mailOutbox)
        .where(where);
      return row?.n ?? 0;
    },
    async (limit, offset) =>
      (
        await db
          .select(columns)
          .from(mailOutbox)
          .leftJoin(companies, eq(companies.id, mailOutbox.company_id))
          .where(where)
          .orderBy(desc(mailOutbox.created_at), desc(mailOutbox.id))
          .limit(limit)
          .offset(offset)
      ).map(toNotification),
  );
}
