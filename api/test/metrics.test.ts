import { call, createTestContext, useTestContext } from './helpers';

/** GET /api/metrics (docs/rules.md#faults-and-overload): Prometheus text for METRICS_TOKEN; unset, 404. */

const ctx = useTestContext({ METRICS_TOKEN: 'metrics-secret-1' });

it('answers Prometheus text for the token: requests by route pattern, method and status, latency, pool, event loop, memory', async () => {
  const { app, adminToken } = ctx;
  const company = await call(app, adminToken, 'POST', '/api/company', {
    name: 'PT Ukur',
    website: 'https://ukur.id',
  });
  const id = company.json<{ id: string }>().id;
  const edit = { name: 'PT Ukur Baru', website: 'https://ukur.id' };
  expect((await call(app, adminToken, 'PUT', `/api/company/${id}`, edit)).statusCode).toBe(200);
  expect((await call(app, adminToken, 'PUT', `/api/company/${id}`, edit)).statusCode).toBe(200);
  expect(
    (await call(app, adminToken, 'PUT', '/api/company/00000000-0000-4000-8000-000000000000', edit))
      .statusCode,
  ).toBe(404);

  const res = await app.inject({
    url: '/api/metrics',
    headers: { authorization: 'Bearer metrics-secret-1' },
  });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  const text = res.body;
  expect(text).toMatch(/http_requests_total\{route="\/api\/company\/:id",method="PUT",status="200"\} 2\n/);
  expect(text).toMatch(/http_requests_total\{route="\/api\/company\/:id",method="PUT",status="404"\} 1\n/);
  expect(text).not.toContain(id);
  expect(text).toMatch(
    /http_request_duration_seconds_bucket\{le="0\.1",route="\/api\/company\/:id",method="PUT"\} \d+/,
  );
  expect(text).toMatch(/db_pool_connections\{state="total"\} \d+/);
  expect(text).toMatch(/nodejs_eventloop_lag_seconds \d/);
  expect(text).toMatch(/process_resident_memory_bytes \d+/);
  expect(text).toMatch(/nodejs_heap_size_used_bytes \d+/);
});

it('refuses another token or none (401)', async () => {
  for (const authorization of ['Bearer wrong', `Bearer ${ctx.adminToken}`, '']) {
    const res = await ctx.app.inject({
      url: '/api/metrics',
      headers: authorization ? { authorization } : {},
    });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('unauthenticated');
  }
});

it('without METRICS_TOKEN the route does not exist (404)', async () => {
  const plain = await createTestContext();
  try {
    const res = await plain.app.inject({ url: '/api/metrics', headers: { authorization: 'Bearer x' } });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('not-found');
  } finally {
    await plain.close();
  }
});
