// Long file: the conventions every route keeps (OpenAPI, the access matrix, error shape, headers, no secrets) walk the whole route table with one record per resource.
import { randomUUID } from 'node:crypto';
import { count } from 'drizzle-orm';
import { auditorInputSchema, PERMISSION_KEYS, plannedAuditInputSchema } from '@sertifikasi/shared-contracts';
import { auditLog, companies, importJobs } from '../src/db/schema';
import { schemeService } from '../src/modules/schemes/schemes.service';
import { createAuditor } from '../src/modules/auditors/auditors.service';
import { createPlannedAudit } from '../src/modules/planned-audits/planned-audits.service';
import { type DeclaredRoute, declaredRoutes } from '../src/lib/route';
import { call, useTestContext, expect422, postRaw } from './helpers';
import { schemeBody } from './forms';

const ctx = useTestContext();
afterEach(() => jest.restoreAllMocks());

const bearer = () => ({ authorization: `Bearer ${ctx.adminToken}` });
/** POST /api/company as the administrator with a body of any content type, as it comes. */
const postCompanyAs = (type: string, payload?: string) =>
  postRaw(ctx.app, '/api/company', type, payload, ctx.adminToken);
const companyCount = async () => (await ctx.database.db.select({ n: count() }).from(companies))[0]!.n;

/** An error answer: only code, message and (for validation) errors; no stack, no internals. */
function expectErrorShape(body: string) {
  const json = JSON.parse(body) as Record<string, unknown>;
  expect(typeof json.code).toBe('string');
  expect(typeof json.message).toBe('string');
  for (const key of Object.keys(json)) expect(['code', 'message', 'errors']).toContain(key);
  expect(body).not.toMatch(/stack|\bat .+:\d+:\d+|node_modules|\.ts\b|select |insert |postgres|pglite/i);
  return json;
}

describe('GET /api/health', () => {
  it('says the API and its database answer, without a token', async () => {
    const res = await ctx.app.inject({ url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', database: 'up' });
    expect(res.headers['content-type']).toMatch(/^application\/json/);
  });

  it('answers 503 with database down when the database fails, without details', async () => {
    jest.spyOn(ctx.app.db, 'execute').mockRejectedValueOnce(new Error('connect ECONNREFUSED 10.0.0.9:5432'));
    const res = await ctx.app.inject({ url: '/api/health' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ status: 'error', database: 'down' });
    expect((await ctx.app.inject({ url: '/api/health' })).json()).toEqual({ status: 'ok', database: 'up' });
  });
});

describe('OpenAPI', () => {
  interface Operation {
    operationId?: string;
    summary?: string;
    tags?: string[];
    security?: unknown[];
    parameters?: {
      in: string;
      name: string;
      required?: boolean;
      description?: string;
      schema?: { enum?: string[] };
    }[];
    requestBody?: {
      content: Record<string, { schema: { properties?: Record<string, unknown>; required?: string[] } }>;
    };
    responses: Record<string, unknown>;
  }
  let doc: { openapi: string; info: { title: string }; paths: Record<string, Record<string, Operation>> };
  beforeAll(async () => {
    const res = await ctx.app.inject({ url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    doc = res.json();
  });

  it('is a public OpenAPI 3 document', () => {
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.info.title).toBeTruthy();
  });

  it('lists every API route with its methods', () => {
    const expected: Record<string, string[]> = {
      '/api/health': ['get'],
      '/api/login': ['post'],
      '/api/logout': ['post'],
      '/api/profile': ['get', 'put'],
      '/api/user-info': ['get'],
      '/api/user': ['get', 'post'],
      '/api/user/{id}': ['put', 'delete'],
      '/api/roles': ['get', 'post'],
      '/api/roles/{id}': ['put', 'delete'],
      '/api/company': ['get', 'post'],
      '/api/company/{id}': ['post', 'put', 'delete'],
      '/api/select/company': ['get'],
      '/api/select/roles': ['get'],
      '/api/select/permission': ['get'],
      '/api/select/certification/{company_id}': ['get'],
      '/api/select/report/{company_id}': ['get'],
      '/api/certification': ['get', 'post'],
      '/api/certification/{id}': ['post', 'put', 'delete'],
      '/api/accredited': ['get', 'post'],
      '/api/accredited/{id}': ['post', 'put', 'delete'],
      '/api/training-certificate': ['get', 'post'],
      '/api/training-certificate/{id}': ['put', 'delete'],
      '/api/training-certificate/{company_id}/{id}': ['get'],
    };
    for (const [path, methods] of Object.entries(expected)) {
      expect(doc.paths).toHaveProperty([path]);
      for (const method of methods) expect(Object.keys(doc.paths[path]!)).toContain(method);
    }
    // Only API routes are documented (images and the viewer are not part of the API).
    for (const path of Object.keys(doc.paths)) expect(path).toMatch(/^\/api\/(?!docs)/);
  });

  /**
   * Public (docs/rules.md#public-check, #notifications): sign-in, health, the public checks, and a
   * reminder's unsubscribe link.
   */
  const PUBLIC_OPS =
    /^(post \/api\/login|get \/api\/health|get \/api\/check-certificate-|get \/api\/download-certificate\/|get \/api\/credential\/|(get|post) \/api\/unsubscribe\/)/;

  it('documents every operation with a summary, tags, responses and bearer security unless public', () => {
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        expect(op.summary).toBeTruthy();
        expect(op.tags?.length).toBeGreaterThan(0);
        expect(Object.keys(op.responses).length).toBeGreaterThan(0);
        const expected = PUBLIC_OPS.test(`${method} ${path}`) ? [] : [{ bearer: [] }];
        expect([`${method} ${path}`, op.security]).toEqual([`${method} ${path}`, expected]);
      }
    }
    expect(doc.paths['/api/login']!.post!.security).toEqual([]);
  });

  it('names every operation once (operationId, from its method and path), for generated clients', () => {
    const ids = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => {
        expect([`${method} ${path}`, op.operationId]).toEqual([`${method} ${path}`, expect.any(String)]);
        return op.operationId!;
      }),
    );
    expect(new Set(ids).size).toBe(ids.length);
    expect(doc.paths['/api/company-certificate/{company_id}/{id}']!.get!.operationId).toBe(
      'getCompanyCertificateByCompanyIdAndId',
    );
    expect(doc.paths['/api/company/{id}']!.post!.operationId).toBe('postCompanyById');
    expect(doc.paths['/api/company/{id}']!.put!.operationId).toBe('putCompanyById');
  });

  it('says where the API is served (servers), for generated clients', () => {
    expect((doc as unknown as { servers: { url: string }[] }).servers).toEqual([
      expect.objectContaining({ url: '/' }),
    ]);
  });

  it('carries the request schemas the routes validate with', () => {
    const loginBody = doc.paths['/api/login']!.post!.requestBody!.content['application/json']!.schema;
    expect(Object.keys(loginBody.properties!)).toEqual(['username', 'password']);
    expect(loginBody.required).toEqual(expect.arrayContaining(['username', 'password']));

    const company = doc.paths['/api/company']!.post!.requestBody!.content;
    expect(Object.keys(company)).toEqual(expect.arrayContaining(['application/json', 'multipart/form-data']));
    const companyBody = company['multipart/form-data']!.schema;
    expect(Object.keys(companyBody.properties!)).toEqual(
      expect.arrayContaining([
        'name',
        'email',
        'phone',
        'address',
        'website',
        'logo',
        'logo_file',
        'ttd_cert_file',
      ]),
    );
    expect(companyBody.required).toEqual(expect.arrayContaining(['name', 'website']));
    expect(doc.paths['/api/company/{id}']!.post!.requestBody).toBeDefined();

    const userBody = doc.paths['/api/user']!.post!.requestBody!.content['application/json']!.schema;
    expect(Object.keys(userBody.properties!)).toEqual(
      expect.arrayContaining(['name', 'username', 'password', 'roles_id', 'company_ids', 'is_active']),
    );
    expect(doc.paths['/api/roles']!.post!.requestBody).toBeDefined();
    expect(doc.paths['/api/profile']!.put!.requestBody).toBeDefined();

    const listParams = doc.paths['/api/company']!.get!.parameters!;
    expect(listParams.filter((p) => p.in === 'query').map((p) => p.name)).toEqual(
      expect.arrayContaining(['page', 'paginate', 'search']),
    );
    for (const path of ['/api/user/{id}', '/api/roles/{id}', '/api/company/{id}']) {
      for (const op of Object.values(doc.paths[path]!)) {
        expect(op.parameters).toEqual(
          expect.arrayContaining([expect.objectContaining({ in: 'path', name: 'id' })]),
        );
      }
    }
  });

  it('tells how to ask a sortable list for its order, and which images a create requires', () => {
    const params = doc.paths['/api/accredited']!.get!.parameters!;
    expect(params.find((p) => p.name === 'sort')).toMatchObject({
      schema: { enum: ['name'] },
      description: expect.stringMatching(/order/),
    });
    expect(params.find((p) => p.name === 'order')).toMatchObject({ schema: { enum: ['asc', 'desc'] } });
    for (const path of ['/api/accredited', '/api/certification']) {
      const body = doc.paths[path]!.post!.requestBody!.content['multipart/form-data']!.schema;
      expect([path, body.required]).toEqual([path, expect.arrayContaining(['company_id', 'icon_file'])]);
    }
    const update =
      doc.paths['/api/accredited/{id}']!.put!.requestBody!.content['multipart/form-data']!.schema;
    expect(update.required).not.toContain('icon_file');
  });

  it('never describes a password or token hash', async () => {
    const res = await ctx.app.inject({ url: '/api/docs/json' });
    expect(res.body).not.toMatch(/password_hash|token_hash/);
  });

  it('serves the viewer at /api/docs, without a token', async () => {
    const res = await ctx.app.inject({ url: '/api/docs' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toMatch(/swagger/i);
  });

  it('keeps the viewer working on a plain-HTTP install: no upgrade-insecure-requests', async () => {
    for (const url of [
      '/api/docs',
      '/api/docs/static/swagger-initializer.js',
      '/api/docs/json',
      '/api/health',
    ]) {
      const res = await ctx.app.inject({ url });
      expect([url, res.statusCode]).toEqual([url, 200]);
      const csp = res.headers['content-security-policy'] as string;
      expect(csp).toMatch(/default-src 'self'/);
      expect([url, csp]).toEqual([url, expect.not.stringMatching(/upgrade-insecure-requests/)]);
    }
    // The viewer's own policy still applies otherwise.
    const viewer = (await ctx.app.inject({ url: '/api/docs' })).headers['content-security-policy'];
    expect(viewer).toMatch(/script-src 'self'(;|$)/);
    expect(viewer).toMatch(/object-src 'none'/);
  });
});

/** The client and type a scheme update may name, per company: those of the last scheme made there. */
const schemeRefs = new Map<string, { client: string; type: string }>();
async function makeScheme(company: string): Promise<string> {
  const type = await ctx.make.certificationType(company, 'ISO Matriks Skema');
  schemeRefs.set(company, { client: await ctx.make.client(company, 'PT Matriks Skema'), type });
  return ctx.make.scheme({ company, type });
}
/** A scheme update body, its ids read when the request is sent (the company's records may come later). */
function schemeBodyOf(company: string): object {
  const refs = () => schemeRefs.get(company) ?? { client: randomUUID(), type: randomUUID() };
  return {
    ...schemeBody(randomUUID(), randomUUID()),
    get certificate_id() {
      return refs().client;
    },
    get certification_id() {
      return refs().type;
    },
  };
}

/** An audit done on a new scheme of the company, recorded through the schemes' service. */
async function makeSchemeAudit(company: string): Promise<string> {
  const scheme = await makeScheme(company);
  const audit = await ctx.make.write((w) =>
    schemeService.addAudit(w, scheme, { kind: 'SPECIAL', date: '2025-01-01', notes: null }),
  );
  return audit.id;
}
const auditBody = () => ({ kind: 'SURVEILLANCE', date: '2025-02-01', notes: 'Matriks' });

/** The client of the site the matrix made last. */
let lastSiteClient = '';

/** An auditor of the company (no qualifications), written through its service. */
async function makeAuditor(company: string, qualifications: unknown[] = []): Promise<string> {
  const input = auditorInputSchema.validateSync({
    company_id: company,
    name: 'Matriks',
    employment: 'INTERNAL',
    qualifications,
  });
  return (await ctx.make.write((w) => createAuditor(w, input))).id;
}

/** The scheme and lead auditor of the last planned audit made in each company (read when a body is sent). */
const lastPlan = new Map<string, { scheme: string; lead: string }>();

/** A planned audit of today in the company, with a lead auditor of its own: no clash with any other. */
async function makePlannedAudit(company: string): Promise<string> {
  const type = await ctx.make.certificationType(company, 'ISO Matriks');
  const scheme = await ctx.make.scheme({ company, type });
  const lead = await makeAuditor(company, [
    { certification_id: type, role: 'LEAD_AUDITOR', sector_codes: [], valid_from: '2000-01-01' },
  ]);
  lastPlan.set(company, { scheme, lead });
  const input = plannedAuditInputSchema.validateSync(plannedAuditBody(company));
  return (await ctx.make.write((w) => createPlannedAudit(w, input))).id;
}
const plannedAuditBody = (company: string) => ({
  get scheme_id() {
    return lastPlan.get(company)?.scheme ?? randomUUID();
  },
  kind: 'SPECIAL',
  get start_date() {
    return ctx.clock.today();
  },
  get end_date() {
    return ctx.clock.today();
  },
  audit_days: 1,
  get team() {
    return [{ auditor_id: lastPlan.get(company)?.lead ?? randomUUID(), role: 'LEAD_AUDITOR' }];
  },
});

/** Routes whose body is not their segment's (an audit done under its scheme). */
const OWNED_ROUTES: Record<
  string,
  { make(company: string): Promise<string>; body(company: string): object }
> = {
  'POST /api/company-certificate-scheme/:id/audits': { make: makeScheme, body: auditBody },
};

/**
 * Company-owned records by the first path segment of their routes: how to make one in a company and
 * a valid update body for it. A route under /{id} of a company-owned module needs an entry here.
 */
const OWNED: Record<string, { make(company: string): Promise<string>; body(company: string): object }> = {
  certification: {
    make: (company) => ctx.make.certificationType(company, 'ISO Matriks'),
    body: (company) => ({ company_id: company, name: 'X', category: 'Y', code: 'Z', position: 1 }),
  },
  accredited: {
    make: (company) => ctx.make.accreditationBody(company),
    body: (company) => ({ company_id: company, name: 'X' }),
  },
  'training-certificate': {
    make: (company) => ctx.make.training(company),
    body: (company) => ({
      company_id: company,
      name: 'X',
      certificate_number: 'MATRIKS-1',
      training: 'Y',
      location: 'Z',
      date: '2025-01-01',
    }),
  },
  'company-certificate': {
    make: (company) => ctx.make.client(company, 'PT Matriks'),
    body: (company) => ({
      company_id: company,
      name: 'X',
      region: 'Y',
      // Read when the request is sent: every client updated here needs a number of its own.
      get certificate_number() {
        return `MATRIKS-${randomUUID()}`;
      },
    }),
  },
  'company-certificate-scheme': { make: makeScheme, body: schemeBodyOf },
  'generate-qr-scheme': { make: makeScheme, body: schemeBodyOf },
  'scheme-audits': { make: makeSchemeAudit, body: auditBody },
  // A site of a client (PUT keeps its client: the body names the site's own).
  'client-site': {
    make: async (company) => {
      const client = await ctx.make.client(company, 'PT Matriks Lokasi');
      lastSiteClient = client;
      return ctx.make.site(client);
    },
    // Read when the request is sent: the client of the site made last (the one the call changes).
    body: () => ({
      get client_id() {
        return lastSiteClient;
      },
      name: 'Gudang',
    }),
  },
  // A public address written as an IP (no name to look up); the stored ones are on the loopback,
  // so 'Kirim Tes' and 'Kirim Ulang' are refused at once without reaching anything.
  webhook: {
    make: (company) => ctx.make.webhook(company),
    body: (company) => ({
      company_id: company,
      url: 'https://93.184.215.14/hook',
      events: ['scheme.created'],
    }),
  },
  'webhook-delivery': { make: (company) => ctx.make.failedDelivery(company), body: () => ({}) },
  // A failed message: the one 'Kirim Ulang' takes (docs/rules.md#notifications).
  'notification-log': { make: (company) => ctx.make.mail(company, { state: 'failed' }), body: () => ({}) },
  auditor: {
    make: (company) => makeAuditor(company),
    body: (company) => ({ company_id: company, name: 'Matriks Ubah', employment: 'EXTERNAL' }),
  },
  'planned-audit': { make: makePlannedAudit, body: plannedAuditBody },
  // An import job (GET /api/import/jobs/:id) of the company.
  import: {
    make: async (company) => {
      const id = randomUUID();
      // A finished job as the import leaves it, written by hand: running one needs a file and the job engine.
      await ctx.database.db.insert(importJobs).values({
        id,
        company_id: company,
        kind: 'company-certificate',
        file_name: 'matriks.xlsx',
        state: 'done',
        total: 1,
        actor: { user: null, permissions: [], scope: 'ALL', requestId: null },
        created_at: new Date(),
      });
      return id;
    },
    body: () => ({}),
  },
};
const COMPANY_OWNED_MODULES = [
  'certification',
  'accredited',
  'company-certificate',
  'training-certificate',
  'webhook',
  'notification-log',
  'auditor',
  'audit-plan',
];

describe('access matrix: every declared route answers 401, 403 and 404 as its access says', () => {
  const routes = () => declaredRoutes(ctx.app).filter((r) => r.url.startsWith('/api/'));
  const signedIn = (r: DeclaredRoute) => !('public' in r.access && r.access.public === true);
  const wanted = (r: DeclaredRoute): string[] => {
    if ('public' in r.access && r.access.public === true) return [];
    const p = r.access.permission;
    return p === undefined ? [] : Array.isArray(p) ? p : [p];
  };
  const sample = (url: string, id: string, company = id) =>
    url.replace(':company_id', company).replace(/:[a-z_]+/g, id);
  const label = (r: DeclaredRoute) => `${r.method} ${r.url}`;
  const SOME_ID = '3f2a1c4e-0000-4000-8000-000000000001';

  it('covers every documented operation', async () => {
    const doc = (await ctx.app.inject({ url: '/api/docs/json' })).json<{ paths: Record<string, object> }>();
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} ${path.replace(/\{([^}]+)\}/g, ':$1')}`),
    );
    expect(routes().map(label).sort()).toEqual(expect.arrayContaining(documented.sort()));
    expect(routes().length).toBeGreaterThanOrEqual(30);
  });

  it('401 without a token on every signed-in route', async () => {
    for (const route of routes().filter(signedIn)) {
      const res = await ctx.app.inject({ method: route.method, url: sample(route.url, SOME_ID) });
      expect([label(route), res.statusCode]).toEqual([label(route), 401]);
    }
  });

  it('403 for a user lacking the permission, and for a scoped user on routes that need scope ALL', async () => {
    const company = await ctx.make.company('PT Matriks Akses');
    const onlyStatistik = await ctx.make.user({
      username: 'matriks.statistik',
      roles_id: await ctx.make.role('Matriks Statistik', ['statistik']),
      company_ids: 'ALL',
    });
    const onlyCompany = await ctx.make.user({
      username: 'matriks.company',
      roles_id: await ctx.make.role('Matriks Perusahaan', ['company']),
      company_ids: 'ALL',
    });
    const scopedAll = await ctx.make.user({
      username: 'matriks.scoped',
      roles_id: await ctx.make.role('Matriks Penuh', [...PERMISSION_KEYS]),
      company_ids: [company],
    });
    let checked = 0;
    for (const route of routes().filter(signedIn)) {
      const keys = wanted(route);
      const url = sample(route.url, SOME_ID, company);
      if (keys.length) {
        const user = keys.includes('statistik') ? onlyCompany : onlyStatistik;
        expect(keys).not.toEqual(expect.arrayContaining(['statistik', 'company']));
        const res = await call(ctx.app, user.token, route.method as 'GET', url);
        expect([label(route), res.statusCode]).toEqual([label(route), 403]);
        checked++;
      }
      if (!('public' in route.access) && route.access.scopeAll) {
        const res = await call(ctx.app, scopedAll.token, route.method as 'GET', url);
        expect([label(route), 'scope', res.statusCode]).toEqual([label(route), 'scope', 403]);
      }
    }
    expect(checked).toBeGreaterThanOrEqual(25);
  });

  it('404 on company-owned /{id} routes for a record of a company outside the scope', async () => {
    const mine = await ctx.make.company('PT Matriks Milik');
    const theirs = await ctx.make.company('PT Matriks Lain');
    const user = await ctx.make.user({
      username: 'matriks.milik',
      roles_id: await ctx.make.role('Matriks Milik Penuh', [...PERMISSION_KEYS]),
      company_ids: [mine],
    });
    const owned = routes().filter(
      (r) => r.url.includes(':id') && wanted(r).some((k) => COMPANY_OWNED_MODULES.includes(k.split(':')[0]!)),
    );
    expect(owned.length).toBeGreaterThanOrEqual(9);
    for (const route of owned) {
      const segment = route.url.split('/')[2]!;
      const maker = OWNED_ROUTES[label(route)] ?? OWNED[segment];
      expect([label(route), maker ? 'has a record maker' : 'add one to OWNED']).toEqual([
        label(route),
        'has a record maker',
      ]);
      const id = await maker!.make(theirs);
      const url = sample(route.url, id, 'ALL');
      const body = route.method === 'GET' || route.method === 'DELETE' ? undefined : maker!.body(mine);
      const res = await call(ctx.app, user.token, route.method as 'GET', url, body);
      expect([label(route), res.statusCode]).toEqual([label(route), 404]);
      // The same call on a record in the caller's company is not refused as missing.
      const own = await maker!.make(mine);
      const ok = await call(ctx.app, user.token, route.method as 'GET', sample(route.url, own, 'ALL'), body);
      expect([label(route), ok.statusCode < 300]).toEqual([label(route), true]);
    }
  });
});

describe('security headers', () => {
  it('puts helmet’s headers and a request id on every answer', async () => {
    for (const res of [
      await ctx.app.inject({ url: '/api/health' }),
      await call(ctx.app, ctx.adminToken, 'GET', '/api/company'),
      await ctx.app.inject({ url: '/api/company' }),
      await ctx.app.inject({ url: '/api/nothing-here' }),
    ]) {
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(res.headers['strict-transport-security']).toMatch(/max-age=\d+/);
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
      const csp = res.headers['content-security-policy'] as string;
      expect(csp).toMatch(/default-src 'self'/);
      expect(csp).toMatch(/object-src 'none'/);
      expect(csp).toMatch(/frame-ancestors 'none'/);
      expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
      expect(res.headers['x-powered-by']).toBeUndefined();
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it('answers with the request id it was given', async () => {
    const res = await ctx.app.inject({ url: '/api/health', headers: { 'x-request-id': 'trace-abc-123' } });
    expect(res.headers['x-request-id']).toBe('trace-abc-123');
  });
});

describe('one error shape', () => {
  it('answers 404 {code, message} for an unknown path or method, with or without a token', async () => {
    const cases = [
      await ctx.app.inject({ url: '/api/tidak-ada' }),
      await call(ctx.app, ctx.adminToken, 'GET', '/api/tidak-ada'),
      await call(ctx.app, ctx.adminToken, 'GET', '/api/company/extra/segments'),
      await ctx.app.inject({ method: 'PATCH', url: '/api/company', headers: bearer() }),
      await ctx.app.inject({ method: 'GET', url: '/api/login' }),
      await ctx.app.inject({ url: '/tidak-ada' }),
    ];
    for (const res of cases) {
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(expectErrorShape(res.body)).toEqual({ code: 'not-found', message: 'Data tidak ditemukan' });
    }
  });

  it('answers 400 {code, message} for malformed JSON, writing nothing', async () => {
    const before = await companyCount();
    for (const payload of ['{"name": "PT Rusak", ', '{name: "PT"}', '', '[1, 2', 'undefined']) {
      const res = await postCompanyAs('application/json', payload);
      expect(res.statusCode).toBe(400);
      expect(expectErrorShape(res.body)).toMatchObject({ code: 'bad-request' });
    }
    expect(await companyCount()).toBe(before);
  });

  it('answers 400 for a body that is not an object', async () => {
    for (const payload of ['[]', '"PT Teks"', '42']) {
      const res = await postCompanyAs('application/json', payload);
      expect(res.statusCode).toBe(400);
      expect(expectErrorShape(res.body).code).toBe('bad-request');
    }
  });

  it('answers 400 {code, message} for an unsupported content type, writing nothing', async () => {
    const before = await companyCount();
    for (const [type, payload] of [
      ['application/x-www-form-urlencoded', 'name=PT+Form&website=https%3A%2F%2Fform.co.id'],
      ['application/xml', '<company><name>PT XML</name></company>'],
      ['text/plain', 'name=PT Teks'],
      ['image/png', '\x89PNG'],
    ]) {
      const res = await postCompanyAs(type!, payload);
      expect(res.statusCode).toBe(400);
      expect(expectErrorShape(res.body)).toMatchObject({ code: 'bad-request', message: expect.any(String) });
    }
    const login = await postRaw(
      ctx.app,
      '/api/login',
      'application/x-www-form-urlencoded',
      'username=admin&password=x',
    );
    expect(login.statusCode).toBe(400);
    expect(await companyCount()).toBe(before);
  });

  it('answers 400 for an unreadable multipart body', async () => {
    for (const [type, payload] of [
      ['multipart/form-data', 'name=PT+Tanpa+Boundary'],
      [
        'multipart/form-data; boundary=XYZ',
        '--XYZ\r\nContent-Disposition: form-data; name="name"\r\n\r\nPT A\r\n',
      ],
      ['multipart/form-data; boundary=XYZ', 'bukan multipart'],
    ]) {
      const res = await postCompanyAs(type!, payload);
      expect(res.statusCode).toBe(400);
      expect(expectErrorShape(res.body).code).toBe('bad-request');
    }
  });

  it('never answers an unreadable multipart body with details, and writes nothing', async () => {
    const before = await companyCount();
    const res = await postCompanyAs(
      'multipart/form-data; boundary=XYZ',
      '--XYZ\r\nContent-Disposition: form-data; name="name"\r\n\r\nPT A\r\n',
    );
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expectErrorShape(res.body);
    expect(res.body).not.toMatch(/Unexpected end|boundary/i);
    expect(await companyCount()).toBe(before);
  });

  it('answers 413 for a JSON body over 1 MiB, writing nothing', async () => {
    const before = await companyCount();
    const res = await postCompanyAs(
      'application/json',
      JSON.stringify({ name: 'PT Besar', website: 'https://besar.co.id', address: 'x'.repeat(1024 * 1024) }),
    );
    expect(res.statusCode).toBe(413);
    expect(expectErrorShape(res.body)).toMatchObject({ code: 'too-large' });
    // Just under the limit is read (and refused by validation for its size, not by the parser).
    const under = await call(ctx.app, ctx.adminToken, 'POST', '/api/company', {
      name: 'PT Besar',
      website: 'https://besar.co.id',
      address: 'x'.repeat(1024 * 1024 - 200),
    });
    expect422.errors(under, { address: 'Alamat maksimal 1000 karakter' });
    expect(await companyCount()).toBe(before);
  });

  it('answers 401 before reading the body of a signed-out request', async () => {
    const res = await postRaw(ctx.app, '/api/company', 'application/json', '{"this is": not json');
    expect(res.statusCode).toBe(401);
    expect(expectErrorShape(res.body).code).toBe('unauthenticated');
  });

  it('answers a failure inside a handler with a bare 500, details only in the log', async () => {
    const before = await companyCount();
    jest.spyOn(ctx.app.db, 'transaction').mockRejectedValueOnce(
      Object.assign(new Error('relation "companies" violates something at /srv/app/src/db.ts:10:5'), {
        detail: 'Key (secret)=(value)',
      }),
    );
    const res = await call(ctx.app, ctx.adminToken, 'POST', '/api/company', {
      name: 'PT Gagal Internal',
      website: 'https://gagal.co.id',
    });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ code: 'internal', message: 'Maaf, ada kesalahan pada sistem' });
    expect(res.body).not.toMatch(/relation|secret|srv/);
    expect(await companyCount()).toBe(before);
  });

  it('keeps validation answers to {code, message, errors}', async () => {
    const res = await call(ctx.app, ctx.adminToken, 'POST', '/api/company', { name: '', website: 'x' });
    expect(res.statusCode).toBe(422);
    const body = expectErrorShape(res.body);
    expect(body.code).toBe('validation');
    expect(body.message).toBe('Nama Perusahaan wajib diisi');
    expect(body.errors).toEqual({
      name: 'Nama Perusahaan wajib diisi',
      website: 'Website harus berupa URL yang valid (contoh: https://contoh.co.id)',
    });
  });
});

describe('no secrets in answers', () => {
  it('never answers a password hash, a token hash or an argon2 string', async () => {
    const company = await ctx.make.company('PT Rahasia');
    const role = await ctx.make.role('Pengelola', ['statistik', 'user', 'user:create', 'roles']);
    const res0 = await call(ctx.app, ctx.adminToken, 'POST', '/api/user', {
      name: 'Budi',
      username: 'budi.rahasia',
      password: 'password-rahasia',
      roles_id: role,
      company_ids: JSON.stringify([company]),
      is_active: 'true',
    });
    expect(res0.statusCode).toBe(201);
    const user = await ctx.make.user({ username: 'pengelola', roles_id: role, company_ids: 'ALL' });
    const login = await ctx.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { username: 'budi.rahasia', password: 'password-rahasia' },
    });
    const answers = [
      res0,
      login,
      await call(ctx.app, ctx.adminToken, 'GET', '/api/user'),
      await call(ctx.app, ctx.adminToken, 'GET', '/api/user?search=budi'),
      await call(ctx.app, ctx.adminToken, 'GET', '/api/user-info'),
      await call(ctx.app, ctx.adminToken, 'GET', '/api/profile'),
      await call(ctx.app, ctx.adminToken, 'GET', '/api/roles'),
      await call(ctx.app, ctx.adminToken, 'GET', '/api/company'),
      await call(ctx.app, ctx.adminToken, 'GET', '/api/select/company'),
      await call(ctx.app, ctx.adminToken, 'GET', '/api/select/roles'),
      await call(ctx.app, user.token, 'GET', '/api/user-info'),
      await call(ctx.app, ctx.adminToken, 'PUT', `/api/user/${res0.json().id}`, {
        name: 'Budi',
        username: 'budi.rahasia',
        password: 'password-baru-1',
        roles_id: role,
        company_ids: JSON.stringify([company]),
        is_active: 'true',
      }),
    ];
    for (const res of answers) {
      expect(res.statusCode).toBeLessThan(300);
      expect(res.body).not.toMatch(/password_hash|token_hash|\$argon2|password-rahasia|password-baru-1/);
    }
    // The audit trail does not keep them either.
    const trail = JSON.stringify(await ctx.database.db.select().from(auditLog));
    expect(trail).toContain('budi.rahasia');
    expect(trail).not.toMatch(/password_hash|token_hash|\$argon2|password-rahasia|password-baru-1/);
  });
});

describe('routing details', () => {
  it('answers HEAD and a trailing slash like the route itself', async () => {
    const head = await ctx.app.inject({ method: 'HEAD', url: '/api/health' });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
    expect((await ctx.app.inject({ url: '/api/health/' })).json()).toEqual({ status: 'ok', database: 'up' });
  });
});
