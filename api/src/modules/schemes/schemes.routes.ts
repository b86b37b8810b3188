import type { FastifyInstance, FastifyRequest } from 'fastify';
import { eq } from 'drizzle-orm';
import * as yup from 'yup';
import {
  addValidity,
  type Scheme,
  type SchemeInput,
  schemeHistoryEntrySchema,
  schemeInputSchema,
  schemeSchema,
  MESSAGES,
  todayIn,
} from '@sertifikasi/shared-contracts';
import type { Executor } from '../../db';
import { schemes } from '../../db/schema';
import { newId } from '../../lib/crypto';
import { invalid, notFound } from '../../lib/errors';
import { deleteResponseSchema, idParams } from '../../lib/params';
import { defineRoute } from '../../lib/route';
import { audit } from '../../services/audit';
import { contextOf } from '../../services/context';
import { publicCheckUrl, qrPngBase64 } from '../../services/qr';
import { SCHEME_AUDIT_ENTITY, schemeStatusHistory } from '../../services/scheme-history';
import {
  bodyBelongs,
  findClientRef,
  findScheme,
  findSchemeRow,
  type SchemeRow,
  typeBelongs,
} from './schemes.repository';

/**
 * Schemes of client certificates (SPEC.md sections 3, 5, 7; DECISIONS.md sections 3, 4, 8, 10):
 * JSON writes under the client certificate's permissions; `expired_date` computed; the client, the
 * certification type and the accreditation body all of the client's company; `cert_number` unique
 * across all companies (schemes_cert_number_uq answers); every write audited with the scheme as
 * answered, from which the status history is derived.
 */
export default async function schemeRoutes(app: FastifyInstance) {
  const tags = ['company-certificate-scheme'];
  const today = () => todayIn(app.config.timeZone);
  const qrOf = (certNumber: string) =>
    qrPngBase64(publicCheckUrl(app.config.publicBaseUrl, 'company', certNumber));

  /**
   * The stored columns of a scheme from its input, once the references are checked: the client
   * (404 when absent or outside the caller's scope: it is the record the scheme is written under),
   * `company_id` equal to the client's, the type and the body of the client's company (422).
   */
  async function columnsFor(tx: Executor, req: FastifyRequest, input: SchemeInput) {
    const client = await findClientRef(tx, input.certificate_id.toLowerCase(), req.auth.scope);
    if (!client) throw notFound();
    const errors: Record<string, string> = {};
    if (input.company_id && input.company_id.toLowerCase() !== client.company_id)
      errors.company_id = 'Perusahaan harus sama dengan perusahaan klien';
    if (!(await typeBelongs(tx, input.certification_id.toLowerCase(), client.company_id)))
      errors.certification_id = 'Sertifikat tidak ditemukan pada perusahaan klien';
    const accredited = input.is_accredited === 'true';
    const accreditedId = accredited && input.accredited_id ? input.accredited_id.toLowerCase() : null;
    if (accreditedId && !(await bodyBelongs(tx, accreditedId, client.company_id)))
      errors.accredited_id = 'Akreditasi tidak ditemukan pada perusahaan klien';
    if (Object.keys(errors).length) throw invalid(errors);
    return {
      company_id: client.company_id,
      certificate_id: client.id,
      certification_id: input.certification_id.toLowerCase(),
      // Cleared when the scheme is not accredited, whatever was sent.
      accredited_id: accreditedId,
      is_accredited: accredited,
      cert_number: input.cert_number,
      status: input.status,
      issue_date: input.issue_date,
      issue_date2: input.issue_date2 ?? null,
      valid_for: input.valid_for,
      valid_for_type: input.valid_for_type,
      valid_date: input.valid_date ?? null,
      // Never taken from the client (DECISIONS.md section 4).
      expired_date: addValidity(input.issue_date, input.valid_for, input.valid_for_type),
      surveillance_date: input.surveillance_date ?? null,
      description: input.desc ?? null,
    } satisfies Partial<SchemeRow>;
  }

  const answerOf = async (tx: Executor, id: string): Promise<Scheme> =>
    (await findScheme(tx, id, 'ALL', today()))!;

  defineRoute(app, {
    method: 'POST',
    url: '/api/company-certificate-scheme',
    summary: 'Add a scheme to a client certificate in scope (expired_date is computed)',
    tags,
    access: { permission: 'company-certificate:create' },
    body: schemeInputSchema,
    response: { 201: schemeSchema },
    handler: async (req, reply) => {
      const created = await app.db.transaction(async (tx) => {
        const columns = await columnsFor(tx, req, req.body);
        const id = newId();
        await tx.insert(schemes).values({ id, ...columns, qrcode: null });
        const after = await answerOf(tx, id);
        await audit(contextOf(app, req, tx), {
          action: 'create',
          entity: SCHEME_AUDIT_ENTITY,
          entityId: id,
          companyId: columns.company_id,
          after,
        });
        return after;
      });
      return reply.status(201).send(created);
    },
  });

  defineRoute(app, {
    method: 'PUT',
    url: '/api/company-certificate-scheme/:id',
    summary: 'Update a scheme in scope (a new cert_number regenerates a stored QR)',
    tags,
    access: { permission: 'company-certificate:edit' },
    params: idParams,
    body: schemeInputSchema,
    response: { 200: schemeSchema },
    handler: async (req) => {
      const { id } = req.params;
      return app.db.transaction(async (tx) => {
        const current = await findSchemeRow(tx, id, req.auth.scope);
        if (!current) throw notFound();
        const columns = await columnsFor(tx, req, req.body);
        const before = await answerOf(tx, id);
        // The QR carries the number: a stored one follows a new number; none stays none.
        const qrcode =
          current.qrcode && current.cert_number !== columns.cert_number
            ? await qrOf(columns.cert_number)
            : current.qrcode;
        await tx
          .update(schemes)
          .set({ ...columns, qrcode, updated_at: new Date() })
          .where(eq(schemes.id, id));
        const after = await answerOf(tx, id);
        await audit(contextOf(app, req, tx), {
          action: 'update',
          entity: SCHEME_AUDIT_ENTITY,
          entityId: id,
          companyId: columns.company_id,
          before,
          after,
        });
        return after;
      });
    },
  });

  defineRoute(app, {
    method: 'DELETE',
    url: '/api/company-certificate-scheme/:id',
    summary: 'Delete a scheme in scope (nothing refers to a scheme; its audit trail stays)',
    tags,
    access: { permission: 'company-certificate:delete' },
    params: idParams,
    response: { 200: deleteResponseSchema },
    handler: async (req) => {
      const { id } = req.params;
      return app.db.transaction(async (tx) => {
        const before = await findScheme(tx, id, req.auth.scope, today());
        if (!before) throw notFound();
        await tx.delete(schemes).where(eq(schemes.id, id));
        await audit(contextOf(app, req, tx), {
          action: 'delete',
          entity: SCHEME_AUDIT_ENTITY,
          entityId: id,
          companyId: before.company_id,
          before,
        });
        return { success: true, message: MESSAGES.deleted };
      });
    },
  });

  defineRoute(app, {
    method: 'GET',
    url: '/api/generate-qr-scheme/:id',
    summary:
      'Make and store the QR of a scheme in scope (PNG, base64) encoding its public check URL; answers the scheme',
    tags,
    // It writes the record, so it needs the right to edit it (the button shows to editors).
    access: { permission: 'company-certificate:edit' },
    params: idParams,
    response: { 200: schemeSchema },
    handler: async (req) => {
      const { id } = req.params;
      const current = await findSchemeRow(app.db, id, req.auth.scope);
      if (!current) throw notFound();
      const qrcode = await qrOf(current.cert_number ?? '');
      return app.db.transaction(async (tx) => {
        const before = await findScheme(tx, id, req.auth.scope, today());
        if (!before) throw notFound();
        // Made from the number read again inside the transaction, in case it changed meanwhile.
        const fresh = before.cert_number === current.cert_number ? qrcode : await qrOf(before.cert_number);
        await tx.update(schemes).set({ qrcode: fresh, updated_at: new Date() }).where(eq(schemes.id, id));
        const after = await answerOf(tx, id);
        await audit(contextOf(app, req, tx), {
          action: 'update',
          entity: SCHEME_AUDIT_ENTITY,
          entityId: id,
          companyId: after.company_id,
          before,
          after,
        });
        return after;
      });
    },
  });

  defineRoute(app, {
    method: 'GET',
    url: '/api/company-certificate-scheme/:id/history',
    summary: 'Status changes of a scheme in scope (from, to, at, effective_from, by), newest first',
    tags,
    access: { permission: 'company-certificate' },
    params: idParams,
    response: { 200: yup.array(schemeHistoryEntrySchema).defined() },
    handler: async (req) => {
      const { id } = req.params;
      if (!(await findSchemeRow(app.db, id, req.auth.scope))) throw notFound();
      return (await schemeStatusHistory(app.db, id, app.clock)).reverse();
    },
  });
}
