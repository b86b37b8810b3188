/**
 * 'Tabel Hari Audit' (permission `audit-plan`; docs/rules.md#auditors-and-planned-audits): a
 * company's audit-days table for a certification type or for every type, read (IAF MD 5's when it
 * has none) and written whole. A company outside the scope 403.
 */
import type { FastifyInstance } from 'fastify';
import {
  auditDayTableInputSchema,
  auditDayTableQuerySchema,
  auditDayTableSchema,
} from '@sertifikasi/shared-contracts';
import { defineRoute } from '../../lib/route';
import { contextOf } from '../../services/context';
import { readAuditDayTable, writeAuditDayTable } from './audit-day-table.service';

export function auditDayTableRoutes(app: FastifyInstance) {
  const tags = ['planned-audits'];
  const access = { permission: 'audit-plan' } as const;

  defineRoute(app, {
    method: 'GET',
    url: '/api/audit-day-table',
    summary: 'A company’s audit-days table for a type (none: every type); IAF MD 5’s when it has none',
    tags,
    access,
    query: auditDayTableQuerySchema,
    response: { 200: auditDayTableSchema },
    handler: async (req) =>
      readAuditDayTable(
        app.db,
        req.auth.scope,
        req.query.company_id.toLowerCase(),
        req.query.certification_id?.toLowerCase() ?? null,
      ),
  });

  defineRoute(app, {
    method: 'PUT',
    url: '/api/audit-day-table',
    summary:
      'Write a company’s audit-days table whole (bands from 1 employee, no gap or overlap; none: IAF MD 5)',
    tags,
    access,
    body: auditDayTableInputSchema,
    response: { 200: auditDayTableSchema },
    handler: async (req) => app.db.transaction((tx) => writeAuditDayTable(contextOf(app, req, tx), req.body)),
  });
}
