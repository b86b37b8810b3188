import type { FastifyInstance } from 'fastify';
import {
  AUDIT_SCHEDULE,
  AUDIT_SCHEDULE_COLUMNS,
  auditDueSummarySchema,
  auditScheduleExportRow,
  auditScheduleQuerySchema,
  auditScheduleRowSchema,
  CYCLE_WINDOW_LABELS,
} from '@sertifikasi/shared-contracts';
import { certificationTypes } from '../../db/schema';
import { scopeParams } from '../../lib/params';
import { defineRoute } from '../../lib/route';
import { companyFilter } from '../../plugins/auth';
import { sendKeptAnswer } from '../../plugins/kept-answer';
import type { ListedEntity } from '../../services/list-versions';
import { namesOf } from '../reports/reports.repository';
import { defineReportRoute } from '../reports/report-route';
import {
  dueSummary,
  scheduleBatches,
  scheduleCount,
  schedulePage,
  schedulePageAndTotal,
  schedulePlain,
} from './audit-schedule.repository';

/*
 * The kinds of record each answer shows (services/list-cache.ts `answer`; kept for its day): a page
 * shows each item due (from its scheme and its audits done) with its scheme's number, client, type,
 * company and earliest planned audit with its lead; the card counts the items alone.
 */
const SCHEDULE_SHOWS = [
  'scheme',
  'scheme-audit',
  'client-certificate',
  'certification-type',
  'company',
  'planned-audit',
  'auditor',
] as const satisfies readonly ListedEntity[];
const SUMMARY_SHOWS = ['scheme', 'scheme-audit'] as const satisfies readonly ListedEntity[];

/**
 * 'Jadwal Audit' (docs/product.md, "The certification cycle"): what is due next for every ACTIVE or
 * SUSPENDED scheme in scope, soonest first (type=table: a page; type=export: the workbook of every
 * matching row), and the dashboard card's two figures. Read from the stored items due.
 */
export default async function auditScheduleRoutes(app: FastifyInstance) {
  const tag = 'audit-schedule';

  defineReportRoute(app, {
    kind: AUDIT_SCHEDULE.endpoint,
    report: AUDIT_SCHEDULE,
    tag,
    summary: `Items due (surveillance, recertification, suspension limit), soonest first (type=export: ${AUDIT_SCHEDULE.fileName})`,
    query: auditScheduleQuerySchema,
    row: auditScheduleRowSchema,
    filter: (q, scope) => ({ query: q, scope, today: app.clock.today() }),
    count: (filter) => scheduleCount(app.db, filter),
    page: (filter, limit, offset) => schedulePage(app.db, filter, limit, offset),
    pageAndTotal: (filter, limit, offset) =>
      schedulePlain(filter) ? schedulePageAndTotal(app.db, filter, limit, offset) : undefined,
    capped: true,
    kept: SCHEDULE_SHOWS,
    exported: async (filter, q, scope, batchSize) => {
      const labels = AUDIT_SCHEDULE.filters;
      const types = await namesOf(app.db, certificationTypes, q.certification, scope);
      const batches = scheduleBatches(app.db, filter, batchSize);
      return {
        columns: AUDIT_SCHEDULE_COLUMNS,
        filters: [
          [labels.window, CYCLE_WINDOW_LABELS[q.window]],
          [labels.certification, types.join(', ')],
          [labels.search, q.search],
        ],
        batches: (async function* () {
          for await (const rows of batches) yield rows.map(auditScheduleExportRow);
        })(),
      };
    },
  });

  defineRoute(app, {
    method: 'GET',
    url: `/api/${AUDIT_SCHEDULE.endpoint}/:company_id/summary`,
    summary: "The dashboard card 'Audit Jatuh Tempo': items late, and due within 30 days",
    tags: [tag],
    access: { permission: AUDIT_SCHEDULE.permission },
    params: scopeParams,
    response: { 200: auditDueSummarySchema },
    handler: async (req, reply) => {
      const scope = companyFilter(req, req.params.company_id);
      const today = app.clock.today();
      const key = `audit-due-summary\n${today}`;
      return sendKeptAnswer(app, req, reply, { kinds: SUMMARY_SHOWS, scope, key }, () =>
        dueSummary(app.db, scope, today),
      );
    },
  });
}
