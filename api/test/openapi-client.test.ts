import type { AddressInfo } from 'node:net';
import createClient from 'openapi-fetch';
import type { paths } from '../openapi/schema';
import { ADMIN_PASSWORD, useTestContext } from './helpers';

/**
 * A client generated from the API's own OpenAPI document (openapi-typescript's types of
 * api/openapi/openapi.json, openapi-fetch's calls), against the API listening on a port: what a
 * third party building on the document gets. Paths, parameters, bodies and answers are typed from
 * the document, so a route that changes its contract breaks this file's type check.
 */
const ctx = useTestContext();
let api: ReturnType<typeof createClient<paths>>;
beforeAll(async () => {
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = ctx.app.server.address() as AddressInfo;
  api = createClient<paths>({ baseUrl: `http://127.0.0.1:${port}` });
});

describe('a client generated from /api/docs/json', () => {
  it('signs in, lists and creates companies, records a training certificate and checks it publicly', async () => {
    const refused = await api.POST('/api/login', { body: { username: 'admin', password: 'wrong-password' } });
    expect(refused.response.status).toBe(401);
    expect(refused.error).toMatchObject({ code: 'l-wrong' });

    const signedIn = await api.POST('/api/login', { body: { username: 'admin', password: ADMIN_PASSWORD } });
    expect(signedIn.response.status).toBe(200);
    const headers = { authorization: `Bearer ${signedIn.data!.token}` };

    const unsigned = await api.GET('/api/company', { params: { query: {} } });
    expect(unsigned.response.status).toBe(401);

    const created = await api.POST('/api/company', {
      headers,
      body: { name: 'PT Klien Terbuka', website: 'https://klien-terbuka.co.id' },
    });
    expect(created.response.status).toBe(201);
    const company = created.data!;

    const listed = await api.GET('/api/company', { headers, params: { query: { search: 'terbuka' } } });
    expect(listed.response.status).toBe(200);
    expect(listed.data!.total).toBe(1);
    expect(listed.data!.data.map((c) => c.name)).toEqual(['PT Klien Terbuka']);

    const training = await api.POST('/api/training-certificate', {
      headers,
      body: {
        company_id: company.id,
        name: 'Budi Santoso',
        certificate_number: 'TR/2025/001',
        training: 'Auditor Internal',
        location: 'Jakarta',
        date: '2025-03-05',
      },
    });
    expect(training.response.status).toBe(201);

    // The public check needs no token; `/` of the number is written `+` in the path.
    const check = await api.GET('/api/check-certificate-training/{number}', {
      params: { path: { number: 'TR+2025+001' } },
    });
    expect(check.response.status).toBe(200);
    expect(check.data).toMatchObject({
      name: 'Budi Santoso',
      certificate_number: 'TR/2025/001',
      training: 'Auditor Internal',
      date: '2025-03-05',
    });

    const unknown = await api.GET('/api/check-certificate-training/{number}', {
      params: { path: { number: 'TR+2025+999' } },
      parseAs: 'text',
    });
    expect(unknown.response.status).toBe(404);
  });
});
