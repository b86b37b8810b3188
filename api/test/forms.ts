import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import sharp from 'sharp';
import { newId } from '../src/lib/crypto';
import { auth } from './helpers';

export interface FilePart {
  data: Buffer;
  filename: string;
  type: string;
}
export type Fields = Record<string, string | FilePart>;

/** A multipart/form-data body for app.inject, built the way a browser builds it. */
export async function formBody(
  fields: Fields,
): Promise<{ payload: Buffer; headers: Record<string, string> }> {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) {
    if (typeof value === 'string') form.append(key, value);
    else form.append(key, new Blob([value.data], { type: value.type }), value.filename);
  }
  const res = new Response(form);
  return {
    payload: Buffer.from(await res.arrayBuffer()),
    headers: { 'content-type': res.headers.get('content-type')! },
  };
}

/** Sends a multipart form (POST unless told) with a token. */
export async function sendForm(
  app: FastifyInstance,
  token: string | null,
  url: string,
  fields: Fields,
  method: 'POST' | 'PUT' = 'POST',
): Promise<LightMyRequestResponse> {
  const { payload, headers } = await formBody(fields);
  return app.inject({ method, url, payload, headers: { ...headers, ...(token ? auth(token) : {}) } });
}

/** A small PNG file part. */
export async function pngPart(colour = 'red', filename = 'icon.png'): Promise<FilePart> {
  const data = await sharp({ create: { width: 32, height: 24, channels: 3, background: colour } })
    .png()
    .toBuffer();
  return { data, filename, type: 'image/png' };
}

/** A scheme body as the form sends it. */
export function schemeBody(
  certificateId: string,
  certificationId: string,
  over: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    certificate_id: certificateId,
    certification_id: certificationId,
    cert_number: `QMS/${newId().slice(0, 8)}`,
    status: 'ACTIVE',
    issue_date: '2025-01-10',
    valid_for: 3,
    valid_for_type: 'YEAR',
    is_accredited: 'false',
    ...over,
  };
}

/** A client ('Sertifikasi Perusahaan') body as the form sends it, naming it `name`. */
export const clientBody = (company: string, name: string, over: Record<string, unknown> = {}) => ({
  company_id: company,
  name,
  certificate_number: `CL-${newId().slice(0, 8)}`,
  region: 'Jakarta',
  ...over,
});

/** A certification type ('Sertifikat') body without its icon, as an update sends it, naming it `name`. */
export const certificationTypeBody = (company: string, name: string, over: Record<string, unknown> = {}) => ({
  company_id: company,
  name,
  category: 'Sistem',
  code: `K-${newId().slice(0, 8)}`,
  position: 1,
  ...over,
});

/** An auditor body as the form sends it: `name`, a lead auditor for the type `type` since 2024. */
export const auditorBody = (
  company: string,
  type: string,
  name: string,
  over: Record<string, unknown> = {},
) => ({
  company_id: company,
  name,
  employment: 'INTERNAL',
  qualifications: [
    { certification_id: type, role: 'LEAD_AUDITOR', sector_codes: [], valid_from: '2024-01-01' },
  ],
  ...over,
});

/** A planned surveillance's body as the form sends it: `start`..`end`, two audit days, `lead` alone. */
export const plannedAuditBody = (
  scheme: string,
  lead: string,
  start: string,
  end: string,
  over: Record<string, unknown> = {},
) => ({
  scheme_id: scheme,
  kind: 'SURVEILLANCE',
  start_date: start,
  end_date: end,
  audit_days: 2,
  team: [{ auditor_id: lead, role: 'LEAD_AUDITOR' }],
  ...over,
});
