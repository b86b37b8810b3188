import { and, eq } from 'drizzle-orm';
import { MESSAGES } from '@sertifikasi/shared-contracts';
import { auditLog } from '../../db/schema';
import type { SignedFields } from '@sertifikasi/shared-contracts/credential';
import { publicCheckUrl } from '../../services/qr';
import { verifiedQrUrl } from '../../../test/signed';
import { call, useTestContext, expect422 } from '../../../test/helpers';
import { allKeys, type SignedIn } from '../../../test/fixtures';

let alfa: string;
let beta: string;
let alfaUser: SignedIn;
let viewer: SignedIn;
const BASE = 'https://cek.sertifikasi.example.id';
const ctx = useTestContext({ PUBLIC_BASE_URL: BASE });

beforeAll(async () => {
  ({
    alfa,
    beta,
    editor: alfaUser,
    reader: viewer,
  } = await ctx.make.cast('plt', 'Pelatihan', {
    editor: allKeys('training-certificate'),
    reader: ['training-certificate'],
  }));
});

interface Body {
  id: string;
  name: string;
  certificate_number: string;
  date: string;
  desc: string | null;
  certification_id?: string | null;
  qrcode: string | null;
  company_id: string;
  company: { id: string; name: string };
}

const input = (number: string, extra: Record<string, unknown> = {}) => ({
  company_id: alfa,
  name: 'Siti Rahma',
  certificate_number: number,
  training: 'Lead Auditor ISO 9001',
  location: 'Bandung',
  date: '2025-03-10',
  ...extra,
});

async function create(number: string, extra: Record<string, unknown> = {}, token = ctx.adminToken) {
  const res = await call(ctx.app, token, 'POST', '/api/training-certificate', input(number, extra));
  expect([number, res.statusCode, res.statusCode === 201 ? '' : res.body]).toEqual([number, 201, '']);
  return res.json<Body>();
}
/** The fields a training certificate's QR signs, for input(number). */
const signed = (number: string): SignedFields => ({
  number,
  name: 'Siti Rahma',
  standard: 'Lead Auditor ISO 9001',
  issue: '2025-03-10',
  expiry: '',
});
const numbers = (res: { json<T>(): T }) => res.json<{ data: Body[] }>().data.map((r) => r.certificate_number);

describe('POST /api/training-certificate', () => {
  it('creates a certificate with the QR of its public check URL, audited', async () => {
    const res = await call(ctx.app, ctx.adminToken, 'POST', '/api/training-certificate', {
      ...input('PLT/2025/001'),
      desc: 'Lulus\ndengan baik',
    });
    expect(res.statusCode).toBe(201);
    const body = res.json<Body>();
    expect(body).toMatchObject({
      certificate_number: 'PLT/2025/001',
      date: '2025-03-10',
      desc: 'Lulus\ndengan baik',
      company: { id: alfa, name: 'PT Alfa Pelatihan' },
    });
    // The QR carries the public check URL, signed over number|name|training|date| (docs/rules.md#signed-certificates).
    expect(await verifiedQrUrl(ctx.app, body.qrcode!, signed('PLT/2025/001'))).toBe(
      `${BASE}/check-certification-training?cert=PLT%2F2025%2F001`,
    );
    expect(publicCheckUrl(BASE, 'training', 'PLT/2025/001')).toBe(
      `${BASE}/check-certification-training?cert=PLT%2F2025%2F001`,
    );
    const trail = await ctx.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'training-certificate'), eq(auditLog.entity_id, body.id)));
    expect(trail).toEqual([expect.objectContaining({ action: 'create', company_id: alfa, after: body })]);
  });

  it('answers 422 with Indonesian field errors', async () => {
    const res = await call(ctx.app, ctx.adminToken, 'POST', '/api/training-certificate', {
      company_id: alfa,
      name: ' ',
      certificate_number: '',
      date: '2025-02-30',
      location: 'Bandung',
    });
    expect422.errors(res, {
      name: 'Nama Personel wajib diisi',
      certificate_number: 'Nomor Sertifikat wajib diisi',
      training: 'Nama Pelatihan wajib diisi',
      date: 'Tanggal Sertifikasi harus berupa tanggal yang valid (YYYY-MM-DD)',
    });
  });

  it('refuses a number already used in any company, trimmed and in any case (the index answers)', async () => {
    await create('PLT-UNIK-01');
    for (const [number, company] of [
      ['PLT-UNIK-01', alfa],
      ['  plt-unik-01 ', beta],
    ] as const) {
      const res = await call(ctx.app, ctx.adminToken, 'POST', '/api/training-certificate', {
        ...input(number),
        company_id: company,
      });
      expect422.field(res, 'certificate_number', 'Nomor sertifikat sudah digunakan');
    }
    const other = await create('PLT-UNIK-02');
    const taken = await call(ctx.app, ctx.adminToken, 'PUT', `/api/training-certificate/${other.id}`, {
      ...input('Plt-Unik-01'),
    });
    expect422.errors(taken, { certificate_number: 'Nomor sertifikat sudah digunakan' });
  });

  it('answers 401 without a token, 403 without the permission or for a company outside the scope', async () => {
    expect((await call(ctx.app, null, 'POST', '/api/training-certificate', input('X-1'))).statusCode).toBe(
      401,
    );
    expect(
      (await call(ctx.app, viewer.token, 'POST', '/api/training-certificate', input('X-2'))).statusCode,
    ).toBe(403);
    const outside = await call(ctx.app, alfaUser.token, 'POST', '/api/training-certificate', {
      ...input('X-3'),
      company_id: beta,
    });
    expect(outside.statusCode).toBe(403);
  });

  it('takes a certification type of the same company only', async () => {
    const own = await ctx.make.certificationType(alfa, 'ISO 9001 Alfa');
    const foreign = await ctx.make.certificationType(beta, 'ISO 9001 Beta');
    expect((await create('PLT-TYPE-1', { certification_id: own })).certification_id).toBe(own);
    const res = await call(ctx.app, ctx.adminToken, 'POST', '/api/training-certificate', {
      ...input('PLT-TYPE-2'),
      certification_id: foreign,
    });
    expect422.errors(res, { certification_id: 'Sertifikat tidak ditemukan di perusahaan ini' });
  });
});

describe('updating, reading one, deleting', () => {
  it('makes the QR again only when a signed field (number, name, training, date) changes', async () => {
    const body = await create('PLT-QR-1');
    const same = await call(ctx.app, alfaUser.token, 'PUT', `/api/training-certificate/${body.id}`, {
      ...input('PLT-QR-1'),
      location: 'Surabaya',
    });
    expect(same.statusCode).toBe(200);
    expect(same.json()).toMatchObject({ location: 'Surabaya', qrcode: body.qrcode });
    const renumbered = await call(ctx.app, alfaUser.token, 'PUT', `/api/training-certificate/${body.id}`, {
      ...input('PLT-QR-2'),
    });
    expect(await verifiedQrUrl(ctx.app, renumbered.json<Body>().qrcode!, signed('PLT-QR-2'))).toBe(
      publicCheckUrl(BASE, 'training', 'PLT-QR-2'),
    );
    expect(renumbered.json<Body>().qrcode).not.toBe(body.qrcode);
    const renamed = await call(ctx.app, alfaUser.token, 'PUT', `/api/training-certificate/${body.id}`, {
      ...input('PLT-QR-2', { name: 'Siti Rahmawati' }),
    });
    expect(
      await verifiedQrUrl(ctx.app, renamed.json<Body>().qrcode!, {
        ...signed('PLT-QR-2'),
        name: 'Siti Rahmawati',
      }),
    ).toBe(publicCheckUrl(BASE, 'training', 'PLT-QR-2'));
  });

  it('GET /{company_id}/{id}: the record in its company or with ALL; 404 elsewhere or out of scope', async () => {
    const body = await create('PLT-ONE-1');
    const get = (company: string, token = ctx.adminToken, id = body.id) =>
      call(ctx.app, token, 'GET', `/api/training-certificate/${company}/${id}`);
    expect((await get(alfa)).json()).toEqual(body);
    expect((await get('ALL')).json()).toEqual(body);
    expect((await get(beta)).statusCode).toBe(404);
    expect((await get('ALL', ctx.adminToken, '3f2a1c4e-0000-4000-8000-000000000001')).statusCode).toBe(404);
    expect((await get('bukan-id')).statusCode).toBe(404);
    const inBeta = await create('PLT-ONE-2', { company_id: beta });
    expect((await get('ALL', alfaUser.token, inBeta.id)).statusCode).toBe(404);
    expect((await get(beta, alfaUser.token, inBeta.id)).statusCode).toBe(404);
    expect((await get('ALL', alfaUser.token)).statusCode).toBe(200);
    expect((await ctx.app.inject({ url: `/api/training-certificate/ALL/${body.id}` })).statusCode).toBe(401);
  });

  it('lists newest date first, searches number, name, training and location; a scoped user sees their company', async () => {
    await create('PLT-LIST-A', {
      company_id: beta,
      date: '2024-01-05',
      name: 'Andi Saputra',
      location: 'Medan',
    });
    await create('PLT-LIST-B', { company_id: beta, date: '2024-06-01', training: 'Auditor Halal' });
    await create('PLT-LIST-C', { company_id: beta, date: '2023-12-31' });
    const list = await call(
      ctx.app,
      ctx.adminToken,
      'GET',
      `/api/training-certificate?company_id=${beta}&search=plt-list`,
    );
    expect(numbers(list)).toEqual(['PLT-LIST-B', 'PLT-LIST-A', 'PLT-LIST-C']);
    for (const term of ['andi', 'HALAL', 'medan', 'list-c']) {
      const res = await call(ctx.app, ctx.adminToken, 'GET', `/api/training-certificate?search=${term}`);
      expect([term, res.json<{ total: number }>().total]).toEqual([term, 1]);
    }
    const sorted = await call(
      ctx.app,
      ctx.adminToken,
      'GET',
      `/api/training-certificate?company_id=${beta}&search=plt-list&sort=date&order=asc`,
    );
    expect(numbers(sorted)).toEqual(['PLT-LIST-C', 'PLT-LIST-A', 'PLT-LIST-B']);
    const scoped = await call(ctx.app, alfaUser.token, 'GET', '/api/training-certificate?paginate=200');
    expect(scoped.json<{ data: Body[] }>().data.every((r) => r.company_id === alfa)).toBe(true);
    expect(numbers(scoped)).not.toContain('PLT-LIST-A');
    const forbidden = await call(
      ctx.app,
      alfaUser.token,
      'GET',
      `/api/training-certificate?company_id=${beta}`,
    );
    expect(forbidden.statusCode).toBe(403);
  });

  it('deletes in scope (audited); 404 for another company’s record; 403 without the permission', async () => {
    const mine = await create('PLT-DEL-1');
    const theirs = await create('PLT-DEL-2', { company_id: beta });
    expect(
      (await call(ctx.app, alfaUser.token, 'DELETE', `/api/training-certificate/${theirs.id}`)).statusCode,
    ).toBe(404);
    expect(
      (await call(ctx.app, viewer.token, 'DELETE', `/api/training-certificate/${mine.id}`)).statusCode,
    ).toBe(403);
    const del = await call(ctx.app, alfaUser.token, 'DELETE', `/api/training-certificate/${mine.id}`);
    expect(del.json()).toEqual({ success: true, message: MESSAGES.deleted });
    const [trail] = await ctx.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity_id, mine.id), eq(auditLog.action, 'delete')));
    expect(trail).toMatchObject({
      entity: 'training-certificate',
      before: { certificate_number: 'PLT-DEL-1' },
    });
    const move = await call(
      ctx.app,
      alfaUser.token,
      'PUT',
      `/api/training-certificate/${theirs.id}`,
      input('Z'),
    );
    expect(move.statusCode).toBe(404);
  });
});
