/**
 * Import from Excel (docs/rules.md#import), for each kind of file:
 * - `GET /api/import/{kind}/template`: the header row and the 'Petunjuk' sheet (`:create`);
 * - `POST /api/import/{kind}/{company_id}?mode=check|apply`, multipart `file`: checks the file
 *   (nothing written) or applies it in one transaction through the entities' services, with the
 *   caller as the actor and source `import`. `:create`, plus `:edit` when the file changes a stored
 *   record (403). Invalid cells: 422 `{code, message, rows}`; unreadable files 422 with a message;
 *   over 10 MiB 413.
 */
import { PassThrough } from 'node:stream';
import type { FastifyError, FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
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
  type ImportMode,
  scopeWithin,
  trainingImportResultSchema,
  V,
} from '@sertifikasi/shared-contracts';
import { companies } from '../../db/schema';
import { forbidden, notFound, refused } from '../../lib/errors';
import { errorJsonSchema, defineRoute } from '../../lib/route';
import { checkZipBound, writeWorkbook, XLSX_CONTENT_TYPE, XlsxError } from '../../lib/xlsx';
import { actorOf, type ServiceContext } from '../../services/context';
import { applyPlan, countPlan, ImportInvalid, planImport, planUpdates } from './import.service';
import { toJsonSchema } from '../../lib/yup-json-schema';

/** What an xlsx may unpack to: far more than any 50,000-row register needs, far less than a bomb. */
export const IMPORT_MAX_UNPACKED = 256 * 1024 * 1024;

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
const importBody = yup.object({
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
      summary: `Check or apply a ${kind} import (multipart file) into a company in the caller's scope`,
      tags: ['import'],
      access: { permission: `${kind}:create` },
      multipart: true,
      params: importParams,
      query: importQuery,
      body: importBody,
      response: {
        200: kind === 'company-certificate' ? companyImportResultSchema : trainingImportResultSchema,
        422: invalidJsonSchema,
      },
      handler: async (req, reply) => {
        const companyId = req.params.company_id;
        const { mode } = req.query;
        const actor = actorOf(req, 'import');
        if (actor.scope !== 'ALL' && !scopeWithin([companyId], actor.scope)) throw notFound();
        const [company] = await app.db
          .select({ id: companies.id })
          .from(companies)
          .where(eq(companies.id, companyId));
        if (!company) throw notFound();
        const file = req.body.file;
        try {
          checkZipBound(file, IMPORT_MAX_UNPACKED);
        } catch (err) {
          throw xlsxRefusal(err);
        }
        try {
          const result = await app.db.transaction(async (tx) => {
            const plan = await planImport(tx, kind, companyId, file).catch((err: unknown) => {
              throw xlsxRefusal(err);
            });
            if (planUpdates(plan) && !actor.permissions.has(`${kind}:edit`))
              throw forbidden(IMPORT_MESSAGES.needsEdit);
            if (mode === 'apply') {
              const ctx: ServiceContext = { tx, actor, clock: app.clock, config: app.config };
              await applyPlan(ctx, plan);
            }
            return countPlan(plan, mode);
          });
          req.log.info({ kind, mode, company: companyId, rows: result.rows }, 'import');
          return result;
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
}

function xlsxRefusal(err: unknown): unknown {
  if (!(err instanceof XlsxError)) return err;
  return err.reason === 'unpacks-too-large'
    ? refused(IMPORT_MESSAGES.unpacksTooLarge)
    : refused(IMPORT_MESSAGES.notXlsx);
}
