import { call, useTestContext } from '../../../test/helpers';
import { pngPart, sendForm } from '../../../test/forms';

const ctx = useTestContext();
let alfa: string;
let beta: string;

interface Option {
  id: string;
  name: string;
  company_id: string;
  company: { id: string; name: string };
}
interface Lookups {
  certification: Option[];
  accredited: Option[];
  company_certificate?: Option[];
}

beforeAll(async () => {
  alfa = await ctx.make.company('PT Alfa Lookup');
  beta = await ctx.make.company('PT Beta Lookup');
  for (const [company, name, position] of [
    [alfa, 'ISO 9001', '2'],
    [alfa, 'ISO 14001', '1'],
    [beta, 'ISO 45001', '1'],
  ] as const) {
    const res = await sendForm(ctx.app, ctx.adminToken, '/api/certification', {
      company_id: company,
      name,
      category: 'Mutu',
      code: name,
      position,
      icon_file: await pngPart(),
    });
    expect(res.statusCode).toBe(201);
  }
  for (const [company, name] of [
    [alfa, 'KAN'],
    [beta, 'IAS'],
  ] as const) {
    const res = await sendForm(ctx.app, ctx.adminToken, '/api/accredited', {
      company_id: company,
      name,
      icon_file: await pngPart(),
    });
    expect(res.statusCode).toBe(201);
  }
  await ctx.make.client(alfa, 'PT Klien Alfa', { certificate_number: 'K-1' });
  await ctx.make.client(beta, 'PT Klien Beta', { certificate_number: 'K-1', region: 'Bali' });
});

const names = (options: Option[]) => options.map((o) => o.name);

describe('GET /api/select/certification/{company_id}', () => {
  it('gives the types (by position) and accreditation bodies of a company, with their company', async () => {
    const res = await call(ctx.app, ctx.adminToken, 'GET', `/api/select/certification/${alfa}`);
    expect(res.statusCode).toBe(200);
    const body = res.json<Lookups>();
    expect(names(body.certification)).toEqual(['ISO 14001', 'ISO 9001']);
    expect(body.accredited).toEqual([
      {
        id: expect.any(String),
        name: 'KAN',
        company_id: alfa,
        company: { id: alfa, name: 'PT Alfa Lookup' },
      },
    ]);
    expect(Object.keys(body)).toEqual(['certification', 'accredited']);
  });

  it('ALL means every company in scope; a company outside it is 403', async () => {
    const all = (await call(ctx.app, ctx.adminToken, 'GET', '/api/select/certification/ALL')).json<Lookups>();
    expect(names(all.accredited)).toEqual(['IAS', 'KAN']);
    const role = await ctx.make.role('Pelatihan Saja', ['training-certificate']);
    const user = await ctx.make.user({ username: 'alfa.lookup', roles_id: role, company_ids: [alfa] });
    const scoped = (await call(ctx.app, user.token, 'GET', '/api/select/certification/ALL')).json<Lookups>();
    expect(names(scoped.accredited)).toEqual(['KAN']);
    expect(names(scoped.certification)).toEqual(['ISO 14001', 'ISO 9001']);
    expect((await call(ctx.app, user.token, 'GET', `/api/select/certification/${beta}`)).statusCode).toBe(
      403,
    );
    expect((await call(ctx.app, user.token, 'GET', '/api/select/report/ALL')).statusCode).toBe(403);
  });

  it('needs one of the certification permissions (403) and a token (401)', async () => {
    const user = await ctx.make.user({
      username: 'laporan.lookup',
      keys: ['report-training-certificate'],
      company_ids: 'ALL',
    });
    expect((await call(ctx.app, user.token, 'GET', '/api/select/certification/ALL')).statusCode).toBe(403);
    expect((await ctx.app.inject({ url: '/api/select/certification/ALL' })).statusCode).toBe(401);
    const report = await call(ctx.app, user.token, 'GET', `/api/select/report/${beta}`);
    expect(report.statusCode).toBe(200);
    expect(report.json<Lookups>()).toMatchObject({
      certification: [expect.objectContaining({ name: 'ISO 45001' })],
      accredited: [expect.objectContaining({ name: 'IAS' })],
      company_certificate: [expect.objectContaining({ name: 'PT Klien Beta', company_id: beta })],
    });
  });
});
