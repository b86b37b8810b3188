/**
 * Uploads to IAF CertSearch against a receiver of our own on the loopback: batches of 100, only
 * what changed since the last successful upload (all with 'Unggah Semua'), refused records logged
 * and not sent again blindly, retries with backoff, a refused key, and the key in no answer.
 */
import { schemeInputSchema } from '@sertifikasi/shared-contracts';
import { schemeService } from '../schemes/schemes.service';
import { call, createTestContext, type TestContext } from '../../../test/helpers';
import { startIafReceiver, type IafReceiver } from '../../../test/iaf-receiver';
import { waitFor } from '../../../test/processes';

let ctx: TestContext;
let iaf: IafReceiver;
let alfa: string;
let type: string;
let kan: string;
let client: string;
const KEY = 'kunci-rahasia-IAF-42';

/** The pause between calls (and the first retry's wait): long enough that timer jitter cannot reorder the waits. */
const PAUSE_MS = 150;

beforeAll(async () => {
  iaf = await startIafReceiver();
  ctx = await createTestContext({ IAF_CERTSEARCH_URL: iaf.url, IAF_CERTSEARCH_PAUSE_MS: String(PAUSE_MS) });
  alfa = await ctx.make.company('PT Alfa Unggah');
  type = await ctx.make.certificationType(alfa, 'ISO 9001:2015');
  kan = await ctx.make.accreditationBody(alfa, 'KAN', { acronym: 'KAN' });
  client = await ctx.make.client(alfa, 'PT Klien Unggah', {
    address: 'Jl. A 1',
    city: 'Bandung',
    scope: 'Jasa',
  });
});
afterAll(async () => {
  await ctx.close();
  await iaf.close();
});

/** `count` ready schemes of `company`, written in one go through the schemes' service. */
async function readySchemes(company: string, count: number, prefix: string) {
  const inputs = Array.from({ length: count }, (_, i) =>
    schemeInputSchema.validateSync({
      certificate_id: client,
      certification_id: type,
      cert_number: `${prefix}-${String(i).padStart(4, '0')}`,
      status: 'ACTIVE',
      issue_date: '2025-01-01',
      valid_for: 3,
      valid_for_type: 'YEAR',
      is_accredited: 'true',
      accredited_id: kan,
      sector_codes: [28],
    }),
  );
  return ctx.make.write((c) => schemeService.createMany(c, inputs));
}

interface Upload {
  id: string;
  state: string;
  sent: number;
  accepted: number;
  refused: { cert_number: string; reason: string }[];
  error: string | null;
}

/** 'Unggah Sekarang' (or 'Unggah Semua'), then the upload followed to its end as 'Riwayat Unggah' shows it. */
async function upload(all = false): Promise<Upload> {
  const res = await call(ctx.app, ctx.adminToken, 'POST', '/api/iaf-certsearch/uploads', {
    company_id: alfa,
    all,
  });
  expect(res.statusCode).toBe(202);
  expect(res.body).not.toContain(KEY);
  const { id } = res.json<Upload>();
  return waitFor(async () => {
    const list = await call(ctx.app, ctx.adminToken, 'GET', `/api/iaf-certsearch/uploads?company_id=${alfa}`);
    expect(list.body).not.toContain(KEY);
    const found = list.json<{ data: Upload[] }>().data.find((u) => u.id === id);
    return found && ['done', 'failed'].includes(found.state) ? found : null;
  }, 'the upload to end');
}

it('refuses an upload while no key is stored', async () => {
  const res = await call(ctx.app, ctx.adminToken, 'POST', '/api/iaf-certsearch/uploads', {
    company_id: alfa,
  });
  expect(res.statusCode).toBe(422);
});

it('sends 250 schemes in 3 calls of at most 100, to the documented path with the key as it is', async () => {
  await readySchemes(alfa, 250, 'UP');
  const saved = await call(ctx.app, ctx.adminToken, 'PUT', '/api/iaf-certsearch/settings', {
    company_id: alfa,
    api_key: KEY,
    enabled: true,
  });
  expect(saved.statusCode).toBe(200);
  const done = await upload();
  expect(done).toMatchObject({ state: 'done', sent: 250, accepted: 250, refused: [] });
  expect(iaf.calls.map((c) => c.certifications.length)).toEqual([100, 100, 50]);
  expect(iaf.calls.every((c) => c.path === '/api/client/v1/cb/bulk-upload-cert' && c.key === KEY)).toBe(true);
  expect(iaf.calls[0]!.certifications[0]).toMatchObject({
    certification_status: 'active',
    certificate_accreditation_status: 'Accredited',
    certified_entity_name: 'PT Klien Unggah',
    certified_entity_street_city: 'Bandung',
    accreditation_body_acronym_name: 'KAN',
    certification_expiry_date: '2028-01-01',
  });
});

it('sends only what changed since the last successful upload, and everything with Unggah Semua', async () => {
  iaf.calls.length = 0;
  expect(await upload()).toMatchObject({ state: 'done', sent: 0 });
  expect(iaf.calls).toHaveLength(0);
  const [changed] = await readySchemes(alfa, 1, 'NEW');
  const next = await upload();
  expect(next).toMatchObject({ state: 'done', sent: 1, accepted: 1 });
  expect(iaf.calls.map((c) => c.certifications.map((r) => r.certificate_number))).toEqual([
    [changed!.cert_number],
  ]);
  iaf.calls.length = 0;
  expect(await upload(true)).toMatchObject({ state: 'done', sent: 251 });
  expect(iaf.calls).toHaveLength(3);
});

it('logs each refused record with the reason IAF gives, and does not send it again unchanged', async () => {
  await readySchemes(alfa, 2, 'REF');
  iaf.calls.length = 0;
  iaf.answer = () => ({
    status: 200,
    body: { errors: [{ certificate_number: 'REF-0001', message: 'Invalid certified_entity_country' }] },
  });
  const done = await upload();
  expect(done).toMatchObject({
    state: 'done',
    sent: 2,
    accepted: 1,
    refused: [{ cert_number: 'REF-0001', reason: 'Invalid certified_entity_country' }],
  });
  iaf.answer = () => ({ status: 200, body: {} });
  iaf.calls.length = 0;
  expect(await upload()).toMatchObject({ state: 'done', sent: 0 });
  expect(iaf.calls).toHaveLength(0);
});

it('retries a failing call with backoff, and stops with the reason when IAF stays down or refuses the key', async () => {
  await readySchemes(alfa, 1, 'RTY');
  iaf.calls.length = 0;
  iaf.answer = (_call, n) => (n <= 2 ? { status: 503 } : { status: 200, body: {} });
  expect(await upload()).toMatchObject({ state: 'done', sent: 1, accepted: 1 });
  expect(iaf.calls).toHaveLength(3);
  // The first retry waits the pause, the next twice that (a few ms of timer slack allowed).
  expect(iaf.calls[1]!.at - iaf.calls[0]!.at).toBeGreaterThanOrEqual(PAUSE_MS - 5);
  expect(iaf.calls[2]!.at - iaf.calls[1]!.at).toBeGreaterThanOrEqual(2 * PAUSE_MS - 5);

  await readySchemes(alfa, 1, 'DOWN');
  iaf.calls.length = 0;
  iaf.answer = () => ({ status: 500 });
  const down = await upload();
  expect(down).toMatchObject({ state: 'failed', sent: 0 });
  expect(down.error).toContain('HTTP 500');
  expect(iaf.calls).toHaveLength(4);

  iaf.calls.length = 0;
  iaf.answer = () => ({ status: 401 });
  const refused = await upload();
  expect(refused).toMatchObject({ state: 'failed', sent: 0 });
  expect(refused.error).toContain('Kunci API ditolak');
  expect(iaf.calls).toHaveLength(1);
});
