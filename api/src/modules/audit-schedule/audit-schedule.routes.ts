import type { FastifyInstance } from 'fastify';
import {
  AUDIT_SCHEDULE,
  AUDIT_SCHEDULE_COLUMNS,
  auditDueSummarySchema,
  auditScheduleExportRow,
  auditScheduleQuerySchema,
  auditScheduleRowSchema,
  CYCLE_WINDOW_LABELS,
  LIST_TOTAL_CAP,
  toListResponse,
} from '@sertifikasi/shared-contracts';
import { certificationTypes } from '../../db/schema';
import { listJsonSchema } from '../../lib/list';
import { scopeParams } from '../../lib/params';
import { defineRoute } from '../../lib/route';
import { toJsonSchema } from '../../lib/yup-json-schema';
import { companyFilter } from '../../plugins/auth';
import { exportBatchSize } from '../reports/export-state';
import { namesOf } from '../reports/reports.repository';
import { sendExport } from '../reports/reports.routes';
import { dueSummary, scheduleBatches, scheduleCount, schedulePage } from './audit-schedule.repository';

/**
 * 'Jadwal Audit' (docs/product.md, "The certification cycle"): what is due next for every ACTIVE or
 * SUSPENDED scheme in scope, soonest first (type=table: a page; type=export: the workbook of every
 * matching row), and the dashboard card's two figures. Read from the stored items due.
 */
export default async function auditScheduleRoutes(app: FastifyInstance) {
  const tags = ['audit-schedule'];

  defineRoute(app, {
    method: 'GET',
    url: `/api/${AUDIT_SCHEDULE.endpoint}/:company_id`,
    summary: `Items due (surveillance, recertification, suspension limit), soonest first (type=export: ${AUDIT_SCHEDULE.fileName})`,
    tags,
    access: { permission: AUDIT_SCHEDULE.permission },
    params: scopeParams,
    query: auditScheduleQuerySchema,
    response: { 200: listJsonSchema(toJsonSchema(auditScheduleRowSchema)) },
    handler: async (req, reply) => {
      const q = req.query;
      const scope = companyFilter(req, req.params.company_id);
      const filter = { query: q, scope, today: app.clock.today() };
      if (q.type === 'export') {
        const labels = AUDIT_SCHEDULE.filters;
        const types = await namesOf(app.db, certificationTypes, q.certification, scope);
        const batches = scheduleBatches(app.db, filter, exportBatchSize(app));
        return sendExport(app, req, reply, {
          kind: AUDIT_SCHEDULE.endpoint,
          workbook: AUDIT_SCHEDULE,
          columns: AUDIT_SCHEDULE_COLUMNS,
          filters: [
            [labels.window, CYCLE_WINDOW_LABELS[q.window]],
            [labels.certification, types.join(', ')],
            [labels.search, q.search],
          ],
          batches: (async function* () {
            for await (const rows of batches) yield rows.map(auditScheduleExportRow);
          })(),
        });
      }
      const [total, rows] = await Promise.all([
        scheduleCount(app.db, filter),
        schedulePage(app.db, filter, q.paginate, (q.page - 1) * q.paginate),
      ]);
      return toListResponse(rows, total, q.page, q.paginate, total > LIST_TOTAL_CAP);
    },
  });

  defineRoute(app, {
    method: 'GET',
    url: `/api/${AUDIT_SCHEDULE.endpoint}/:company_id/summary`,
    summary: "The dashboard card 'Audit Jatuh Tempo': items late, and due within 30 days",
    tags,
    access: { permission: AUDIT_SCHEDULE.permission },
    params: scopeParams,
    response: { 200: auditDueSummarySchema },
    handler: async (req) => {
      const scope = companyFilter(req, req.params.company_id);
      return dueSummary(app.db, scope, app.clock.today());
    },
  });
}
