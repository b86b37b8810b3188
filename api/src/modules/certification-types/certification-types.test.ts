import { and, eq } from 'drizzle-orm';
import { MESSAGES } from '@sertifikasi/shared-contracts';
import { auditLog, certificationTypes } from '../../db/schema';
import { call, useTestContext, expect422 } from '../../../test/helpers';
import { allKeys, type SignedIn } from '../../../test/fixtures';
import { type Fields, pngPart, sendForm } from '../../../test/forms';

const ctx = useTestContext();
let alfa: string;
let beta: string;
let alfaUser: SignedIn;

beforeAll(async () => {
  ({
    alfa,
    beta,
    editor: alfaUser,
  } = await ctx.make.cast('sert', 'Mutu', {
    editor: [...allKeys('certification'), 'training-certificate:create'],
  }));
});

interface Body {
  id: string;
  name: string;
  code: string;
  position: number;
  icon: string | null;
  company_id: string;
  student_count: number;
  valid_for: number | null;
  valid_for_type: string | null;
}

const fields = (name: string, extra: Partial<Record<string, string>> = {}): Fields => ({
  company_id: alfa,
  name,
  category: 'Sistem Manajemen',
  code: name,
  position: '1',
  ...extra,
});

async function create(name: string, extra: Partial<Record<string, string>> = {}, token = ctx.adminToken) {
  const res = await sendForm(ctx.app, token, '/api/certification', {
    ...fields(name, extra),
    icon_file: await pngPart(),
  });
  expect([name, res.statusCode]).toEqual([name, 201]);
  return res.json<Body>();
}
const names = (res: { json<T>(): T }) => res.json<{ data: Body[] }>().data.map((r) => r.name);

describe('certification types', () => {
  it('creates a type with its icon (multipart), audited; the icon is required on create', async () => {
    const res = await sendForm(ctx.app, ctx.adminToken, '/api/certification', {
      ...fields('ISO 9001:2015', { valid_for: '3', valid_for_type: 'YEAR' }),
      icon_file: await pngPart(),
    });
    expect(res.statusCode).toBe(201);
    const body = res.json<Body>();
    expect(body).toMatchObject({
      name: 'ISO 9001:2015',
      position: 1,
      valid_for: 3,
      valid_for_type: 'YEAR',
      student_count: 0,
      company: { id: alfa, name: 'PT Alfa Mutu' },
    });
    expect(body.icon).toMatch(/\.png$/);
    const trail = await ctx.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'certification'), eq(auditLog.entity_id, body.id)));
    expect(trail).toEqual([expect.objectContaining({ action: 'create', after: body })]);

    const noIcon = await sendForm(ctx.app, ctx.adminToken, '/api/certification', fields('Tanpa Icon'));
    expect422.errors(noIcon, { icon_file: 'Icon wajib diisi' });
  });

  it('answers 422 with Indonesian field errors', async () => {
    const res = await sendForm(ctx.app, ctx.adminToken, '/api/certification', {
      company_id: alfa,
      name: '',
      category: '',
      code: '',
      position: 'satu',
      valid_for_type: 'WEEK',
      icon_file: await pngPart(),
    });
    expect422.errors(res, {
      name: 'Nama Sertifikat wajib diisi',
      category: 'Kategori wajib diisi',
      code: 'Kode wajib diisi',
      position: 'No. Urut harus berupa angka',
      valid_for_type: 'Satuan Masa Berlaku tidak valid',
    });
  });

  it('lists by position, then name; searches name, code and category; filters by company', async () => {
    await create('Zeta', { position: '2', code: 'Z-1', company_id: beta });
    await create('beta', { position: '2', code: 'B-1', company_id: beta });
    await create('Alfa', { position: '5', code: 'A-1', company_id: beta, category: 'Keamanan Pangan' });
    const list = await call(ctx.app, ctx.adminToken, 'GET', `/api/certification?company_id=${beta}`);
    expect(names(list)).toEqual(['beta', 'Zeta', 'Alfa']);
    const byCode = await call(ctx.app, ctx.adminToken, 'GET', '/api/certification?search=z-1');
    expect(names(byCode)).toEqual(['Zeta']);
    const byCategory = await call(ctx.app, ctx.adminToken, 'GET', '/api/certification?search=PANGAN');
    expect(names(byCategory)).toEqual(['Alfa']);
    const scoped = await call(
      ctx.app,
      alfaUser.token,
      'GET',
      '/api/certification?company_id=ALL&paginate=200',
    );
    expect(scoped.json<{ data: Body[] }>().data.every((r) => r.company_id === alfa)).toBe(true);
    expect(
      (await call(ctx.app, alfaUser.token, 'GET', `/api/certification?company_id=${beta}`)).statusCode,
    ).toBe(403);
    expect((await call(ctx.app, ctx.adminToken, 'GET', '/api/certification?sort=name')).statusCode).toBe(422);
  });

  it('counts the training certificates of a type as student_count and refuses to delete it then', async () => {
    const type = await create('ISO 45001');
    for (const n of ['PLT-1', 'PLT-2']) {
      const res = await call(ctx.app, alfaUser.token, 'POST', '/api/training-certificate', {
        company_id: alfa,
        certification_id: type.id,
        name: 'Budi',
        certificate_number: n,
        training: 'Auditor K3',
        location: 'Jakarta',
        date: '2025-02-01',
      });
      expect(res.statusCode).toBe(201);
    }
    const list = await call(ctx.app, ctx.adminToken, 'GET', '/api/certification?search=45001');
    expect(list.json<{ data: Body[] }>().data[0]).toMatchObject({ id: type.id, student_count: 2 });
    const del = await call(ctx.app, alfaUser.token, 'DELETE', `/api/certification/${type.id}`);
    expect(del.json()).toEqual({ success: false, message: MESSAGES.inUseOrder });
  });

  it('refuses to delete a type a scheme uses; deletes an unused one; 404 out of scope', async () => {
    const used = await create('ISO 14001');
    await ctx.make.scheme({ company: alfa, type: used.id });
    expect((await call(ctx.app, ctx.adminToken, 'DELETE', `/api/certification/${used.id}`)).json()).toEqual({
      success: false,
      message: MESSAGES.inUseOrder,
    });
    const move = await call(ctx.app, ctx.adminToken, 'PUT', `/api/certification/${used.id}`, {
      ...fields('ISO 14001'),
      company_id: beta,
    });
    expect(move.statusCode).toBe(422);
    const other = await create('Milik Beta', { company_id: beta });
    expect((await call(ctx.app, alfaUser.token, 'DELETE', `/api/certification/${other.id}`)).statusCode).toBe(
      404,
    );
    const put = await sendForm(ctx.app, alfaUser.token, `/api/certification/${other.id}`, {
      ...fields('Ambil'),
      _method: 'PUT',
    });
    expect(put.statusCode).toBe(404);
    const unused = await create('ISO 27001');
    expect((await call(ctx.app, alfaUser.token, 'DELETE', `/api/certification/${unused.id}`)).json()).toEqual(
      {
        success: true,
        message: MESSAGES.deleted,
      },
    );
    expect(
      await ctx.database.db.select().from(certificationTypes).where(eq(certificationTypes.id, unused.id)),
    ).toEqual([]);
  });

  it('updates with POST _method=PUT, keeping the icon when it is not sent', async () => {
    const type = await create('ISO 22000');
    const res = await sendForm(ctx.app, alfaUser.token, `/api/certification/${type.id}`, {
      ...fields('ISO 22000:2018', { position: '7' }),
      _method: 'PUT',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: 'ISO 22000:2018', position: 7, icon: type.icon });
  });
});
