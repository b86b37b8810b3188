/**
 * Import from Excel (docs/rules.md#import), for each kind of file:
 * - `GET /api/import/{kind}/template`: the header row and the 'Petunjuk' sheet (`:create`);
 * - `POST /api/import/{kind}/{company_id}?mode=check|apply`, multipart `file`: the whole file
 *   checked in the request (import.service.ts `checkImport`: scope 404, permissions 403, every
 *   invalid cell 422, unreadable files 422, over 10 MiB 413); `check` answers the counts, `apply`
 *   answers `202 {job}` with `Location: /api/import/jobs/{id}` and the job applies it;
 * - `GET /api/import/jobs/{id}` and `GET /api/import/jobs?company_id=`: a job, recent jobs.
 */
import { PassThrough } from 'node:stream';
import type { FastifyError, FastifyInstance } from 'fastify';
import * as yup from 'yup';
import {
  companyImportResultSchema,
  ERROR_CODES,
  IMPORT_COLUMNS,
  IMPORT_KINDS,
  IMPORT_MAX_BYTES,
  IMPORT_MESSAGES,
  IMPORT_MODES,
  IMPORT_SHEETS,
  IMPORT_TEMPLATE_FILES,
  importCellErrorSchema,
  importColumnHelp,
  importJobListQuerySchema,
  importJobPath,
  type ImportMode,
  trainingImportResultSchema,
  V,
} from '@sertifikasi/shared-contracts';
import { listJsonSchema } from '../../lib/list';
import { errorJsonSchema, defineRoute } from '../../lib/route';
import { writeWorkbook, XLSX_CONTENT_TYPE } from '../../lib/xlsx';
import { actorOf } from '../../services/context';
import {
  checkAnswer,
  checkImport,
  findImportJob,
  ImportInvalid,
  listImportJobs,
  startImport,
} from './import.service';
import { toJsonSchema } from '../../lib/yup-json-schema';

/** An import job as answered (shared-contracts ImportJob). */
const importJobJson = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    company_id: { type: 'string' },
    kind: { type: 'string' },
    file_name: { type: 'string' },
    state: { type: 'string' },
    done: { type: 'integer' },
    total: { type: 'integer' },
    created_by: { type: ['string', 'null'] },
    created_at: { type: 'string' },
    started_at: { type: ['string', 'null'] },
    finished_at: { type: ['string', 'null'] },
    result: { type: ['object', 'null'], additionalProperties: true },
    error: {
      type: ['object', 'null'],
      properties: {
        code: { type: 'string' },
        message: { type: 'string' },
        rows: { type: 'array', items: toJsonSchema(importCellErrorSchema) },
      },
    },
  },
};

const importParams = yup.object({
  company_id: yup.string().trim().lowercase().uuid().required(),
});
const importQuery = yup
  .object({
    mode: yup
      .string<ImportMode>()
      .oneOf([...IMPORT_MODES], V.oneOf('mode'))
      .required(V.required('mode')),
  })
  .noUnknown(V.unknown);
const jobParams = yup.object({ id: yup.string().trim().lowercase().uuid().required() });
const importBody = yup.object({
  /** A name for 'Riwayat Impor' when the file part carries none (the upload's own name comes first). */
  file_name: yup.string().trim().max(255).optional(),
  file: yup
    .mixed<Buffer>()
    .test('is-file', IMPORT_MESSAGES.noFile, (v) => v == null || Buffer.isBuffer(v))
    .required(IMPORT_MESSAGES.noFile),
});

/** 422: the API's error shape, with the invalid cells of a file. */
const invalidJsonSchema = {
  ...errorJsonSchema,
  properties: {
    ...(errorJsonSchema.properties as object),
    rows: { type: 'array', items: toJsonSchema(importCellErrorSchema) },
  },
};

const MIB = 1024 * 1024;

export default async function importRoutes(app: FastifyInstance) {
  // The import's file is larger than an image: its own multipart limit, one file.
  app.addHook('onRoute', (route) => {
    if (route.method === 'POST' && route.url.startsWith('/api/import/')) {
      route.config = {
        ...route.config,
        multipartOptions: { limits: { fileSize: IMPORT_MAX_BYTES, files: 1, fields: 5, parts: 6 } },
      };
    }
  });
  // A file over the limit answers 413 with the import's own limit; anything else goes to the app's handler.
  app.setErrorHandler((err: FastifyError, _req, reply) => {
    if (err.code === 'FST_REQ_FILE_TOO_LARGE')
      return reply
        .status(413)
        .send({ code: ERROR_CODES.tooLarge, message: IMPORT_MESSAGES.tooLarge(IMPORT_MAX_BYTES / MIB) });
    throw err;
  });

  for (const kind of IMPORT_KINDS) {
    defineRoute(app, {
      method: 'GET',
      url: `/api/import/${kind}/template`,
      summary: `The xlsx template of a ${kind} import: the header row and the 'Petunjuk' sheet`,
      tags: ['import'],
      access: { permission: `${kind}:create` },
      response: { 200: { type: 'string', format: 'binary' } },
      handler: async (_req, reply) => {
        const out = new PassThrough();
        const columns = IMPORT_COLUMNS[kind];
        void writeWorkbook(
          out,
          [
            {
              name: IMPORT_SHEETS.data,
              widths: columns.map((c) => Math.max(14, c.header.length + 4)),
              header: columns.map((c) => c.header),
            },
            {
              name: IMPORT_SHEETS.help,
              widths: [26, 30, 90],
              header: ['Kolom', 'Wajib', 'Aturan'],
              rows: columns.map((c) => importColumnHelp(kind, c)),
            },
          ],
          app.clock.now(),
        ).catch((err: unknown) => out.destroy(err as Error));
        return reply
          .header('content-type', XLSX_CONTENT_TYPE)
          .header('content-disposition', `attachment; filename="${IMPORT_TEMPLATE_FILES[kind]}"`)
          .send(out);
      },
    });

    defineRoute(app, {
      method: 'POST',
      url: `/api/import/${kind}/:company_id`,
      summary: `Check a ${kind} file (200, counts) or apply it as a job (202, Location: the job) in a company of the caller's scope`,
      tags: ['import'],
      access: { permission: `${kind}:create` },
      multipart: true,
      params: importParams,
      query: importQuery,
      body: importBody,
      response: {
        200: kind === 'company-certificate' ? companyImportResultSchema : trainingImportResultSchema,
        202: { type: 'object', properties: { job: importJobJson }, required: ['job'] },
        422: invalidJsonSchema,
      },
      handler: async (req, reply) => {
        const companyId = req.params.company_id;
        const { mode } = req.query;
        const actor = actorOf(req, 'import');
        const { file } = req.body;
        try {
          const plan = await checkImport(app.db, actor, kind, companyId, file);
          if (mode === 'check') return checkAnswer(plan, mode);
          const job = await startImport(
            { db: app.db, clock: app.clock, config: app.config, jobs: app.jobs, plans: app.importPlans },
            actor,
            kind,
            companyId,
            file,
            req.uploadNames?.file?.trim() || req.body.file_name || 'impor.xlsx',
            plan,
          );
          req.log.info({ kind, company: companyId, rows: job.total, job: job.id }, 'import queued');
          return reply.status(202).header('location', importJobPath(job.id)).send({ job });
        } catch (err) {
          if (err instanceof ImportInvalid)
            return reply
              .status(422)
              .send({ code: ERROR_CODES.validation, message: err.message, rows: err.rows });
          throw err;
        }
      },
    });
  }

  defineRoute(app, {
    method: 'GET',
    url: '/api/import/jobs/:id',
    summary: 'An import job: state, progress in rows, the result when done, the error when failed',
    tags: ['import'],
    access: { permission: IMPORT_KINDS.map((k) => `${k}:create` as const) },
    params: jobParams,
    response: { 200: importJobJson },
    handler: async (req) => findImportJob(app.db, actorOf(req, 'import'), req.params.id),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/api/import/jobs',
    summary: "Recent imports of a company in the caller's scope, newest first",
    tags: ['import'],
    access: { permission: IMPORT_KINDS.map((k) => `${k}:create` as const) },
    query: importJobListQuerySchema,
    response: { 200: listJsonSchema(importJobJson) },
    handler: async (req) => listImportJobs(app.db, actorOf(req, 'import'), req.query),
  });
}
