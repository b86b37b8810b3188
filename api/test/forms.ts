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
