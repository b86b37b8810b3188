/**
 * 'Rencana Audit' and 'Kalender Auditor' (permission `audit-plan`;
 * docs/rules.md#auditors-and-planned-audits): the planned audits of the companies in scope (list with
 * filters, or its workbook with `type=export`; get, plan, change, delete, 'Selesai', 'Batalkan'), the audit days suggested for a scheme
 * and kind, and each active auditor's days of a month. A company outside the scope 403, a record
 * outside it 404.
 */
import type { FastifyInstance } from 'fastify';
import {
  auditDaysQuerySchema,
  auditDaysSchema,
  auditorCalendarQuerySchema,
  auditorCalendarSchema,
  longDate,
  PLANNED_AUDIT_COLUMNS,
  PLANNED_AUDIT_EXPORT,
  PLANNED_AUDIT_STATE_LABELS,
  plannedAuditInputSchema,
  plannedAuditListQuerySchema,
  plannedAuditSchema,
} from '@sertifikasi/shared-contracts';
import { invalid, notFound } from '../../lib/errors';
import { listJsonSchema } from '../../lib/list';
import { deleteResponseSchema, idParams } from '../../lib/params';
import { sendKeptAnswer } from '../../plugins/kept-answer';
import { defineRoute } from '../../lib/route';
import { toJsonSchema } from '../../lib/yup-json-schema';
import { companyFilter } from '../../plugins/auth';
import { exportBatchSize } from '../reports/export-state';
import { sendExport } from '../reports/report-route';
import { auditDayTableRoutes } from './audit-day-table.routes';
import { plannedAuditBatches } from './planned-audits.export';
import { contextOf } from '../../services/context';
import { auditorCalendar, CALENDAR_SHOWS } from './auditor-calendar.repository';
import {
  findPlannedAudit,
  listPlannedAudits,
  PLANNED_AUDIT_SHOWS,
  schemeFacts,
} from './planned-audits.repository';
import {
  auditDaysOf,
  cancelPlannedAudit,
  completePlannedAudit,
  createPlannedAudit,
  PLANNED_AUDIT_MESSAGES,
  removePlannedAudit,
  updatePlannedAudit,
} from './planned-audits.service';

export default async function plannedAuditRoutes(app: FastifyInstance) {
  const tags = ['planned-audits'];
  const access = { permission: 'audit-plan' } as const;
  auditDayTableRoutes(app);

  defineRoute(app, {
    method: 'GET',
    url: '/api/planned-audit',
    summary: `Planned audits in the caller’s scope, soonest first (from/to: audits touching those days; type=export: ${PLANNED_AUDIT_EXPORT.fileName})`,
    tags,
    access,
    query: plannedAuditListQuerySchema,
    response: { 200: listJsonSchema(toJsonSchema(plannedAuditSchema)) },
    handler: async (req, reply) => {
      const scope = companyFilter(req, req.query.company_id);
      if (req.query.type === 'export') {
        const words = PLANNED_AUDIT_EXPORT.filters;
        const spec = {
          kind: 'planned-audit',
          workbook: PLANNED_AUDIT_EXPORT,
          columns: PLANNED_AUDIT_COLUMNS,
          filters: [
            [words.from, req.query.from ? longDate(req.query.from, 'id') : ''],
            [words.to, req.query.to ? longDate(req.query.to, 'id') : ''],
            [words.state, req.query.state ? PLANNED_AUDIT_STATE_LABELS[req.query.state] : ''],
            [words.search, req.query.search],
          ] as [string, string][],
          batches: plannedAuditBatches(app.db, req.query, scope, exportBatchSize(app)),
        };
        return sendExport(app, req, reply, spec, req.query.company_id);
      }
      const list = () => listPlannedAudits(app.db, req.query, scope);
      // A search reads clients' names afresh each time (its answers are not kept: one per text typed).
      if (req.query.search) return list();
      const key = `planned-audit-list\n${JSON.stringify(req.query)}`;
      return sendKeptAnswer(app, req, reply, { kinds: PLANNED_AUDIT_SHOWS, scope, key }, list);
    },
  });

  defineRoute(app, {
    method: 'GET',
    url: '/api/planned-audit/:id',
    summary: 'One planned audit with its team',
    tags,
    access,
    params: idParams,
    response: { 200: plannedAuditSchema },
    handler: async (req) => {
      const audit = await findPlannedAudit(app.db, req.params.id, req.auth.scope);
      if (!audit) throw notFound();
      return audit;
    },
  });

  defineRoute(app, {
    method: 'POST',
    url: '/api/planned-audit',
    summary: 'Plan an audit of a scheme; the team is invited by email with an iCalendar',
    tags,
    access,
    body: plannedAuditInputSchema,
    response: { 201: plannedAuditSchema },
    handler: async (req, reply) => {
      const created = await app.db.transaction((tx) => createPlannedAudit(contextOf(app, req, tx), req.body));
      return reply.status(201).send(created);
    },
  });

  defineRoute(app, {
    method: 'PUT',
    url: '/api/planned-audit/:id',
    summary: 'Change a PLANNED audit (its SEQUENCE rises; the team told of new dates)',
    tags,
    access,
    params: idParams,
    body: plannedAuditInputSchema,
    response: { 200: plannedAuditSchema },
    handler: async (req) =>
      app.db.transaction((tx) => updatePlannedAudit(contextOf(app, req, tx), req.params.id, req.body)),
  });

  defineRoute(app, {
    method: 'DELETE',
    url: '/api/planned-audit/:id',
    summary: 'Delete a planned audit (the team of a PLANNED one is told it is cancelled)',
    tags,
    access,
    params: idParams,
    response: { 200: deleteResponseSchema },
    handler: async (req) =>
      app.db.transaction((tx) => removePlannedAudit(contextOf(app, req, tx), req.params.id)),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/api/planned-audit/:id/done',
    summary: 'Selesai: the audit DONE, recorded as an audit done of its scheme (the cycle moves on)',
    tags,
    access,
    params: idParams,
    response: { 200: plannedAuditSchema },
    handler: async (req) =>
      app.db.transaction((tx) => completePlannedAudit(contextOf(app, req, tx), req.params.id)),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/api/planned-audit/:id/cancel',
    summary: 'Batalkan: the audit CANCELLED, its team freed and told',
    tags,
    access,
    params: idParams,
    response: { 200: plannedAuditSchema },
    handler: async (req) =>
      app.db.transaction((tx) => cancelPlannedAudit(contextOf(app, req, tx), req.params.id)),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/api/audit-days',
    summary: 'The audit days suggested for a scheme and kind, and what they rest on',
    tags,
    access,
    query: auditDaysQuerySchema,
    response: { 200: auditDaysSchema },
    handler: async (req) => {
      const scheme = await schemeFacts(app.db, req.query.scheme_id.toLowerCase(), req.auth.scope);
      if (!scheme) throw invalid({ scheme_id: PLANNED_AUDIT_MESSAGES.schemeMissing });
      return auditDaysOf(scheme, req.query.kind);
    },
  });

  defineRoute(app, {
    method: 'GET',
    url: '/api/auditor-calendar',
    summary:
      'Kalender Auditor: a page of the active auditors (by name) with their days of a month (none: this month) on planned or done audits',
    tags,
    access,
    query: auditorCalendarQuerySchema,
    response: { 200: auditorCalendarSchema },
    handler: async (req, reply) => {
      const [companyId] = companyFilter(req, req.query.company_id) as string[];
      // No month: this month by the app's clock and time zone (the portal's one clock), as answered.
      const month = req.query.month ?? app.clock.today().slice(0, 7);
      const read = () => auditorCalendar(app.db, companyId!, month, req.query);
      if (req.query.search) return read();
      const key = `auditor-calendar\n${month}\n${JSON.stringify(req.query)}`;
      return sendKeptAnswer(app, req, reply, { kinds: CALENDAR_SHOWS, scope: [companyId!], key }, read);
    },
  });
}
