import type { FastifyInstance, FastifyRequest } from 'fastify';
import * as yup from 'yup';
import {
  addDays,
  effectiveStatus,
  isUuid,
  optionalDate,
  type SchemeStatus,
  V,
} from '@sertifikasi/shared-contracts';
import {
  type CompanyCheck,
  companyCheckJsonSchema,
  type PointInTime,
  type PublicHistoryEntry,
  type PublicStatus,
  type TrainingCheck,
  trainingCheckJsonSchema,
} from '@sertifikasi/shared-contracts/public';
import { schemeSignedFields } from '@sertifikasi/shared-contracts/credential';
import { forbidden, notFound } from '../../lib/errors';
import { defineRoute } from '../../lib/route';
import { holdsMore, publicRefusal } from '../../plugins/auth';
import { certificateFileName, certificatePdf, fullAddress } from '../../services/pdf-certificate';
import { publicCheckUrl } from '../../services/qr';
import { signedQrPng } from '../../services/signed-qr';
import { deriveStatusHistory, statusOn } from '../../services/scheme-history';
import { schemePublicFields } from '../../services/scheme-public';
import { imageData } from '../images/images.repository';
import { notFoundSchema, numberParams, openToOtherOrigins, sendCached, sendNotFound } from './public-answers';
import {
  findSchemeByNumber,
  findSchemeForPdf,
  findSitesForPdf,
  findTrainingByNumber,
  type PdfSchemeRow,
  type PublicSchemeRow,
} from './public-check.repository';

const TAG = 'public verification';
const CHECK_PATHS = ['/api/check-certificate-company/:number', '/api/check-certificate-training/:number'];

const companyQuery = yup.object({ on: optionalDate('Tanggal') }).noUnknown(V.unknown);
const idParams = yup.object({ id: yup.string().required() });
// The number parameter, caching, 404 and CORS of every public answer: public-answers.ts.

/** The public status history: status and the date it held from, no "who" (docs/rules.md#status). */
export function publicHistory(
  entries: readonly { to: string; effective_from: string }[],
  expiredDate: string,
  today: string,
): PublicHistoryEntry[] {
  const out: PublicHistoryEntry[] = [];
  for (const e of entries) {
    const status = e.to as SchemeStatus;
    if (out.at(-1)?.status === status) continue;
    out.push({ status, from: e.effective_from });
  }
  // An ACTIVE certificate past its expiry: EXPIRED from the day after (it is valid through expired_date).
  if (out.at(-1)?.status === 'ACTIVE' && expiredDate < today) {
    out.push({ status: 'EXPIRED', from: addDays(expiredDate, 1) });
  }
  return out;
}

/** The status on `date` and whether the certificate was valid then (docs/rules.md#status). */
export function pointInTime(
  history: Parameters<typeof statusOn>[0],
  row: { issue_date: string; expired_date: string },
  date: string,
): PointInTime {
  if (date < row.issue_date) return { date, status: null, valid: false };
  const status = statusOn(history, date);
  if (status === 'ACTIVE' && date > row.expired_date) return { date, status: 'EXPIRED', valid: false };
  return { date, status, valid: status === 'ACTIVE' };
}

/** The company answer: the scheme's public fields (services/scheme-public.ts) in the check's names. */
function companyAnswer(
  row: PublicSchemeRow,
  today: string,
  history: PublicHistoryEntry[],
  on: PointInTime | null,
): CompanyCheck {
  const { id: _id, cert_number, status, description, ...fields } = schemePublicFields(row, row, today);
  return {
    ...fields,
    original_issue_date: row.original_issue_date,
    cert_number: cert_number ?? '',
    status: status as PublicStatus,
    desc: description,
    simple_dates: row.simple_dates,
    public_certificate_download: row.public_certificate_download,
    download_id: row.public_certificate_download && status === 'ACTIVE' ? row.id : null,
    history,
    on,
  };
}

/**
 * May this caller download the scheme's PDF? Public: ACTIVE, unexpired, of a company with
 * `public_certificate_download`. Staff (signed in by the auth hook with the route's `more`
 * permission, `company-certificate`, and the scheme's company in scope): always. Otherwise 404 when
 * the public may not even check it (DRAFT, or unknown) and 403 when it is public but not
 * downloadable; a token that is sent but no longer valid answers 401 instead, so a signed-out staff
 * member learns to sign in again (publicRefusal).
 */
async function downloadAccess(
  app: FastifyInstance,
  req: FastifyRequest,
  row: PdfSchemeRow | null,
): Promise<void> {
  if (row && holdsMore(req, row.company_id)) {
    return;
  }
  const today = app.clock.today();
  if (
    row &&
    row.public_certificate_download &&
    effectiveStatus(row.status as SchemeStatus, row.expired_date, today) === 'ACTIVE'
  ) {
    return;
  }
  if (!row || row.status === 'DRAFT') throw publicRefusal(req, notFound('Sertifikat tidak ditemukan'));
  throw publicRefusal(req, forbidden('Sertifikat ini tidak dapat diunduh'));
}

/**
 * The public verification API (docs/rules.md#public-check and #status): the two checks, open to every
 * origin for GET (CORS), cacheable and rate limited per address; and the certificate PDF.
 */
export default async function publicCheckRoutes(app: FastifyInstance) {
  const rateLimit = { max: app.config.publicRateLimit, timeWindow: 60_000 };

  // The two checks live in their own context: its hook opens them (and only them) to other origins.
  await app.register(async (checks) => {
    openToOtherOrigins(checks, CHECK_PATHS, rateLimit);

    defineRoute(checks, {
      method: 'GET',
      url: '/api/check-certificate-company/:number',
      summary:
        'Verify a company certificate by its number (each `/` written `+`, or `%2F`; trimmed, any case). ' +
        'Public fields only; `404 NOT FOUND` (text/plain) for unknown and DRAFT numbers. `?on=YYYY-MM-DD` ' +
        'adds the status on that date and whether it was valid then. Cacheable (ETag), CORS open.',
      tags: [TAG],
      access: { public: true },
      params: numberParams,
      query: companyQuery,
      rateLimit,
      response: { 200: companyCheckJsonSchema, 404: notFoundSchema },
      handler: async (req, reply) => {
        const row = await findSchemeByNumber(app.db, req.params.number);
        if (!row) return sendNotFound(reply);
        const today = app.clock.today();
        // scheme-history's derivation, over the audit rows read with the scheme (one round trip).
        const hasCreation = row.audit.some((a) => a.action === 'create');
        const entries = deriveStatusHistory(row.audit, app.clock, hasCreation ? null : row);
        const on = req.query.on ? pointInTime(entries, row, req.query.on) : null;
        const answer = companyAnswer(row, today, publicHistory(entries, row.expired_date, today), on);
        return sendCached(req, reply, answer);
      },
    });

    defineRoute(checks, {
      method: 'GET',
      url: '/api/check-certificate-training/:number',
      summary:
        'Verify a training certificate by its number (each `/` written `+`, or `%2F`; trimmed, any case). ' +
        '`404 NOT FOUND` (text/plain) for unknown numbers. Cacheable (ETag), CORS open.',
      tags: [TAG],
      access: { public: true },
      params: numberParams,
      rateLimit,
      response: { 200: trainingCheckJsonSchema, 404: notFoundSchema },
      handler: async (req, reply) => {
        const row = await findTrainingByNumber(app.db, req.params.number);
        if (!row) return sendNotFound(reply);
        const answer: TrainingCheck = {
          name: row.name,
          certificate_number: row.certificate_number,
          training: row.training,
          location: row.location,
          date: row.date,
        };
        return sendCached(req, reply, answer);
      },
    });
  });

  defineRoute(app, {
    method: 'GET',
    url: '/api/download-certificate/:id',
    summary:
      'The certificate of a scheme as an A4 PDF, named `CERT. NO. {number} {client}.pdf`. Public for ACTIVE, ' +
      'unexpired schemes of a company that allows downloads; staff with company-certificate and the scheme ' +
      'in scope (bearer token, optional) can always download it. 404 unknown or DRAFT, 403 not downloadable.',
    tags: [TAG],
    access: { public: true, more: 'company-certificate' },
    params: idParams,
    rateLimit,
    response: { 200: { type: 'string', format: 'binary' } },
    handler: async (req, reply) => {
      const id = req.params.id;
      const row = isUuid(id) ? await findSchemeForPdf(app.db, id.toLowerCase()) : null;
      await downloadAccess(app, req, row);
      if (!row) throw notFound();
      const number = row.cert_number ?? '';
      const checkUrl = publicCheckUrl(app.config.publicBaseUrl, 'company', number);
      const [logo, signature, mark, sites, qr] = await Promise.all([
        imageData(app.db, row.logo_cert),
        imageData(app.db, row.ttd_cert),
        row.is_accredited ? imageData(app.db, row.accreditation_icon) : null,
        findSitesForPdf(app.db, row),
        // The QR carries the signature; the printed address stays the plain check URL.
        signedQrPng(app.db, app.config, 'company', schemeSignedFields({ ...row, cert_number: number })),
      ]);
      const pdf = await certificatePdf({
        certNumber: number,
        revision: row.revision,
        client: row.name,
        address: fullAddress(row) || null,
        scope: row.scope,
        sectorCodes: row.sector_codes,
        eaCode: row.ea_code,
        sites: sites.map((s) => ({ name: s.name, address: fullAddress(s), scope: s.scope })),
        standard: row.standard,
        accreditation:
          row.is_accredited && row.accreditation
            ? { name: row.accreditation, acronym: row.accreditation_acronym, mark }
            : null,
        issueDate: row.issue_date,
        originalIssueDate: row.original_issue_date,
        // 'Tanggal Terbit Terakhir', else the issue date (docs/rules.md#register-data).
        latestIssueDate: row.latest_issue_date ?? row.issue_date,
        expiredDate: row.expired_date,
        surveillanceDate: row.surveillance_date,
        simpleDates: row.simple_dates,
        issuer: row.company_name,
        issuerAddress: row.company_address,
        logo,
        signature,
        qrPng: Buffer.from(qr, 'base64'),
        checkUrl,
        createdAt: app.clock.now(),
      });
      return reply
        .header('Content-Type', 'application/pdf')
        .header('Content-Disposition', certificateFileName(number, row.name).header)
        .header('Cache-Control', 'private, no-store')
        .header('X-Content-Type-Options', 'nosniff')
        .send(pdf);
    },
  });
}
