import type { FastifyInstance } from 'fastify';
import type { ImportJob } from '@sertifikasi/shared-contracts';
import { formBody } from './forms';
import { auth, call } from './helpers';

/** The scheme columns of a client and scheme import file, in the template's order. */
export const SCHEME_COLUMNS = [
  'Nomor Sertifikat',
  'Sertifikat',
  'Status',
  'Tanggal Terbit',
  'Masa Berlaku',
  'Satuan Masa Berlaku',
];

/** Follows an import job (GET /api/import/jobs/{id}) until it ends, done or failed, as the dialog does. */
export async function followImportJob(app: FastifyInstance, token: string, id: string): Promise<ImportJob> {
  for (;;) {
    const res = await call(app, token, 'GET', `/api/import/jobs/${id}`);
    expect(res.statusCode).toBe(200);
    const job = res.json<ImportJob>();
    if (job.state === 'done' || job.state === 'failed') return job;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Applies an import file as a client does: `202` with the job and its `Location` at once, then the
 * job followed to its end. Answers the ended job.
 */
export async function applyImport(
  app: FastifyInstance,
  token: string,
  kind: string,
  companyId: string,
  file: Buffer,
  fileName = 'data.xlsx',
): Promise<ImportJob> {
  const { payload, headers } = await formBody({
    file_name: fileName,
    file: {
      data: file,
      filename: fileName,
      type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    },
  });
  const res = await app.inject({
    method: 'POST',
    url: `/api/import/${kind}/${companyId}?mode=apply`,
    payload,
    headers: { ...headers, ...auth(token) },
  });
  expect([res.statusCode, res.headers['content-type']]).toEqual([202, expect.stringContaining('json')]);
  const { job } = res.json<{ job: ImportJob }>();
  expect(res.headers.location).toBe(`/api/import/jobs/${job.id}`);
  expect(['queued', 'running', 'done']).toContain(job.state);
  return followImportJob(app, token, job.id);
}
