/**
 * The scheme report's pages kept between writes (services/list-cache.ts `answer`): a page is asked
 * twice (the second the kept one), then a write of each kind of record it shows, and the next ask
 * must show it; a day passing moves an ACTIVE scheme past its expiry with nothing written.
 */
import type { ListResponse, SchemeReportRow } from '@sertifikasi/shared-contracts';
import { ADMIN_PASSWORD, call, login, useTestContext } from '../../../test/helpers';
import { certificationTypeBody, clientBody, schemeBody } from '../../../test/forms';

/** 10:00 in Jakarta on 10 April 2026. */
const ctx = useTestContext({ TZ: 'Asia/Jakarta' }, { now: new Date('2026-04-10T03:00:00Z') });
let company: string;
let type: string;
let client: string;
let body: string;
let scheme: string;

/** Issued on 13 April 2025 for a year, accredited by `body`. */
const issued = (certNumber: string) =>
  schemeBody(client, type, {
    cert_number: certNumber,
    issue_date: '2025-04-13',
    valid_for: 1,
    valid_for_type: 'YEAR',
    is_accredited: 'true',
    accredited_id: body,
  });

beforeAll(async () => {
  company = await ctx.make.company('PT Laporan Simpan');
  type = await ctx.make.certificationType(company, 'ISO 9001');
  body = await ctx.make.accreditationBody(company, 'KAN');
  client = await ctx.make.client(company, 'PT Klien Laporan');
  const res = await call(ctx.app, ctx.adminToken, 'POST', '/api/company-certificate-scheme', issued('LAP/1'));
  expect(res.statusCode).toBe(201);
  scheme = res.json<{ id: string }>().id;
});

const put = async (url: string, payload: Record<string, unknown>) =>
  expect([url, (await call(ctx.app, ctx.adminToken, 'PUT', url, payload)).statusCode]).toEqual([url, 200]);

/** The scheme's row in the report's first page, asked twice (the second kept). */
async function shown(token = ctx.adminToken) {
  const url = `/api/report-company-certification-scheme/${company}?paginate=20`;
  const ask = async () => {
    const res = await call(ctx.app, token, 'GET', url);
    expect(res.statusCode).toBe(200);
    return res.json<ListResponse<SchemeReportRow>>();
  };
  const first = await ask();
  expect(await ask()).toEqual(first);
  const row = first.data.find((r) => r.id === scheme);
  return (
    row &&
    [
      row.company_name,
      row.client_name,
      row.cert_name,
      row.accredited,
      row.cert_number,
      row.effective_status,
    ].join(' | ')
  );
}

describe('kept scheme report pages', () => {
  it('show each write of a kind they show at the next ask, and the next day’s status', async () => {
    expect(await shown()).toBe('PT Laporan Simpan | PT Klien Laporan | ISO 9001 | KAN | LAP/1 | ACTIVE');
    await put(`/api/company/${company}`, { name: 'PT Laporan Baru', website: 'https://laporan.co.id' });
    expect(await shown()).toBe('PT Laporan Baru | PT Klien Laporan | ISO 9001 | KAN | LAP/1 | ACTIVE');
    await put(`/api/company-certificate/${client}`, clientBody(company, 'PT Klien Laporan Baru'));
    expect(await shown()).toBe('PT Laporan Baru | PT Klien Laporan Baru | ISO 9001 | KAN | LAP/1 | ACTIVE');
    await put(`/api/certification/${type}`, certificationTypeBody(company, 'ISO 9001:2015'));
    expect(await shown()).toBe(
      'PT Laporan Baru | PT Klien Laporan Baru | ISO 9001:2015 | KAN | LAP/1 | ACTIVE',
    );
    await put(`/api/accredited/${body}`, { company_id: company, name: 'KAN Baru' });
    expect(await shown()).toBe(
      'PT Laporan Baru | PT Klien Laporan Baru | ISO 9001:2015 | KAN Baru | LAP/1 | ACTIVE',
    );
    await put(`/api/company-certificate-scheme/${scheme}`, issued('LAP/2'));
    expect(await shown()).toBe(
      'PT Laporan Baru | PT Klien Laporan Baru | ISO 9001:2015 | KAN Baru | LAP/2 | ACTIVE',
    );
    // Past its expiry (the 13th), with nothing written.
    ctx.clock.set(new Date('2026-04-14T03:00:00Z'));
    try {
      expect(await shown(await login(ctx.app, 'admin', ADMIN_PASSWORD))).toBe(
        'PT Laporan Baru | PT Klien Laporan Baru | ISO 9001:2015 | KAN Baru | LAP/2 | EXPIRED',
      );
    } finally {
      ctx.clock.set(null);
    }
  });
});
