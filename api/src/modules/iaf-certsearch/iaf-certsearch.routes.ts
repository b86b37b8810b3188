/**
 * 'IAF CertSearch' (permission `iaf-certsearch`; docs/rules.md#iaf-certsearch): readiness, the
 * upload workbook, the account's settings (the key never answered), 'Unggah Sekarang' / 'Unggah
 * Semua' (202 with the upload; the job sends it) and 'Riwayat Unggah'. Every route names its
 * company: outside the caller's scope 403, a company that does not exist 404.
 */
import { PassThrough } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  IAF_EXPORT_FILE,
  iafCompanyQuerySchema,
  iafReadinessSchema,
  iafSettingsInputSchema,
  iafSettingsSchema,
  iafUploadInputSchema,
  iafUploadListSchema,
  iafUploadSchema,
} from '@sertifikasi/shared-contracts';
import { invalid } from '../../lib/errors';
import { defineRoute } from '../../lib/route';
import { XLSX_CONTENT_TYPE } from '../../lib/xlsx';
import { contextOf } from '../../services/context';
import { checkCompanyInScope } from '../resource/resource.service';
import { writeIafWorkbook } from './iaf-certsearch.workbook';
import { startUpload } from './iaf-certsearch.job';
import { listUploads } from './iaf-certsearch.repository';
import { checkCompany, IAF_NO_KEY, readiness, readSettingsOf, saveSettings } from './iaf-certsearch.service';

export default async function iafCertsearchRoutes(app: FastifyInstance) {
  const tags = ['iaf-certsearch'];
  const access = { permission: 'iaf-certsearch' } as const;

  /** The company a request names, in the caller's scope (403) and existing (404). */
  const companyOf = async (req: FastifyRequest, companyId: string) => {
    const id = companyId.toLowerCase();
    checkCompanyInScope(req.auth.scope, id);
    await checkCompany(app.db, id);
    return id;
  };

  defineRoute(app, {
    method: 'GET',
    url: '/api/iaf-certsearch',
    summary:
      'How many of a company’s accredited schemes are ready for IAF CertSearch, and what the rest miss',
    tags,
    access,
    query: iafCompanyQuerySchema,
    response: { 200: iafReadinessSchema },
    handler: async (req) => readiness(app.db, await companyOf(req, req.query.company_id)),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/api/iaf-certsearch/export',
    summary: 'The IAF CertSearch upload workbook of a company’s ready schemes',
    tags,
    access,
    query: iafCompanyQuerySchema,
    response: { 200: { type: 'string', format: 'binary' } },
    handler: async (req, reply) => {
      const companyId = await companyOf(req, req.query.company_id);
      const out = new PassThrough();
      void writeIafWorkbook(app.db, app.clock, companyId, out).catch((err: unknown) =>
        out.destroy(err as Error),
      );
      return reply
        .header('content-type', XLSX_CONTENT_TYPE)
        .header('content-disposition', `attachment; filename="${IAF_EXPORT_FILE}"`)
        .send(out);
    },
  });

  defineRoute(app, {
    method: 'GET',
    url: '/api/iaf-certsearch/settings',
    summary: 'A company’s IAF CertSearch settings: on or off, and whether a key is stored (never the key)',
    tags,
    access,
    query: iafCompanyQuerySchema,
    response: { 200: iafSettingsSchema },
    handler: async (req) => readSettingsOf(app.db, await companyOf(req, req.query.company_id)),
  });

  defineRoute(app, {
    method: 'PUT',
    url: '/api/iaf-certsearch/settings',
    summary:
      'Set a company’s IAF CertSearch key (write-only; empty keeps it) and switch its upload on or off',
    tags,
    access,
    body: iafSettingsInputSchema,
    response: { 200: iafSettingsSchema },
    handler: async (req) => {
      await companyOf(req, req.body.company_id);
      return app.db.transaction((tx) => saveSettings(contextOf(app, req, tx), req.body));
    },
  });

  defineRoute(app, {
    method: 'POST',
    url: '/api/iaf-certsearch/uploads',
    summary: 'Unggah Sekarang (all: Unggah Semua): queue an upload to IAF CertSearch; 202 with the upload',
    tags,
    access,
    body: iafUploadInputSchema,
    response: { 202: iafUploadSchema },
    handler: async (req, reply) => {
      const companyId = await companyOf(req, req.body.company_id);
      if (!(await readSettingsOf(app.db, companyId)).has_key)
        throw invalid({ api_key: IAF_NO_KEY }, IAF_NO_KEY);
      const upload = await startUpload(app, companyId, { all: req.body.all, trigger: 'manual' });
      return reply.status(202).send(upload);
    },
  });

  defineRoute(app, {
    method: 'GET',
    url: '/api/iaf-certsearch/uploads',
    summary: 'Riwayat Unggah: a company’s uploads to IAF CertSearch, newest first, with the records refused',
    tags,
    access,
    query: iafCompanyQuerySchema,
    response: { 200: iafUploadListSchema },
    handler: async (req) => ({ data: await listUploads(app.db, await companyOf(req, req.query.company_id)) }),
  });
}
