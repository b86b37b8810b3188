/**
 * 'Rencana Audit' and 'Kalender Auditor' kept whole between writes (services/list-versions.ts
 * `answer`): each answer is asked first (so the app keeps it), then a write of each kind of record
 * it shows, through the API of this app or of a second app on the same database (another process
 * of a cluster), and the answer asked again must show the write. A kind missing from the answer's
 * list would leave the old name or date in it. Compressed answers read back as the plain one.
 */
import zlib from 'node:zlib';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Auditor, AuditorCalendar, ListResponse, PlannedAudit } from '@sertifikasi/shared-contracts';
import { buildApp } from '../../app';
import { loadConfig } from '../../config';
import {
  auditorBody,
  certificationTypeBody,
  clientBody,
  plannedAuditBody,
  schemeBody,
} from '../../../test/forms';
import { ADMIN_PASSWORD, call, login, useTestContext } from '../../../test/helpers';

/** 10:00 in Jakarta on 1 March 2026. */
const ctx = useTestContext({ TZ: 'Asia/Jakarta' }, { now: new Date('2026-03-01T03:00:00Z') });
/** A second app on the same database: its writes stand for another process's. */
let other: FastifyInstance;
let otherToken: string;
let alfa: string;
let type: string;
let client: string;
let scheme: string;
let lead: Auditor;
let audit: PlannedAudit;

/** The lead auditor's body, `active` or not. */
const leadBody = (name: string, active = 'true') => auditorBody(alfa, type, name, { active });
/** The scheme's body numbered `certNumber`. */
const numbered = (certNumber: string) => schemeBody(client, type, { cert_number: certNumber });

beforeAll(async () => {
  alfa = await ctx.make.company('PT Alfa Tersimpan');
  type = await ctx.make.certificationType(alfa, 'ISO 9001');
  client = await ctx.make.client(alfa, 'PT Klien Lama', { employees_number: 20 });
  scheme = (
    await call(ctx.app, ctx.adminToken, 'POST', '/api/company-certificate-scheme', numbered('QMS/K/1'))
  ).json<{ id: string }>().id;
  const made = await call(ctx.app, ctx.adminToken, 'POST', '/api/auditor', leadBody('Lina Lama'));
  expect(made.statusCode).toBe(201);
  lead = made.json<Auditor>();
  const planned = await call(
    ctx.app,
    ctx.adminToken,
    'POST',
    '/api/planned-audit',
    plannedAuditBody(scheme, lead.id, '2026-03-10', '2026-03-11'),
  );
  expect(planned.statusCode).toBe(201);
  audit = planned.json<PlannedAudit>();
  other = await buildApp({
    config: loadConfig({
      NODE_ENV: 'test',
      TZ: 'Asia/Jakarta',
      PORTAL_ROOT: path.join(os.tmpdir(), 'sertifikasi-no-portal'),
    }),
    db: ctx.database.db,
    clock: ctx.app.clock,
  });
  await other.ready();
  otherToken = await login(other, 'admin', ADMIN_PASSWORD);
});
afterAll(async () => {
  await other?.close();
});

const LIST = () => `/api/planned-audit?company_id=${alfa}`;
const CALENDAR = () => `/api/auditor-calendar?company_id=${alfa}&month=2026-03`;

/** What 'Rencana Audit' shows of the audit, and 'Kalender Auditor' of March (asked twice: the second kept). */
async function shown() {
  const read = async () => {
    const list = await call(ctx.app, ctx.adminToken, 'GET', LIST());
    const calendar = await call(ctx.app, ctx.adminToken, 'GET', CALENDAR());
    expect([list.statusCode, calendar.statusCode]).toEqual([200, 200]);
    const row = list.json<ListResponse<PlannedAudit>>().data.find((a) => a.id === audit.id);
    const month = calendar.json<AuditorCalendar>();
    return {
      audit: row && {
        client: row.scheme.client,
        cert_number: row.scheme.cert_number,
        certification: row.scheme.certification,
        team: row.team.map((m) => m.name),
        dates: [row.start_date, row.end_date],
      },
      calendar: month.data.map((p) => ({
        name: p.name,
        days: p.days,
        clients: p.audits.map((a) => a.client),
      })),
    };
  };
  const first = await read();
  expect(await read()).toEqual(first);
  return first;
}

describe('kept whole answers of the planned audits', () => {
  it('show every write of a kind they show, from this app or another, at the next ask', async () => {
    expect(await shown()).toEqual({
      audit: {
        client: 'PT Klien Lama',
        cert_number: 'QMS/K/1',
        certification: 'ISO 9001',
        team: ['Lina Lama'],
        dates: ['2026-03-10', '2026-03-11'],
      },
      calendar: [{ name: 'Lina Lama', days: ['2026-03-10', '2026-03-11'], clients: ['PT Klien Lama'] }],
    });

    // The auditor renamed (this app), then the client (the other app).
    expect(
      (await call(ctx.app, ctx.adminToken, 'PUT', `/api/auditor/${lead.id}`, leadBody('Lina Baru')))
        .statusCode,
    ).toBe(200);
    let now = await shown();
    expect(now.audit?.team).toEqual(['Lina Baru']);
    expect(now.calendar[0]?.name).toBe('Lina Baru');
    const renamed = await call(
      other,
      otherToken,
      'PUT',
      `/api/company-certificate/${client}`,
      clientBody(alfa, 'PT Klien Baru', { employees_number: 20 }),
    );
    expect(renamed.statusCode).toBe(200);
    now = await shown();
    expect(now.audit).toMatchObject({ client: 'PT Klien Baru', team: ['Lina Baru'] });
    expect(now.calendar).toEqual([
      { name: 'Lina Baru', days: ['2026-03-10', '2026-03-11'], clients: ['PT Klien Baru'] },
    ]);

    // The scheme's number (the other app), then the type's name (this app).
    expect(
      (await call(other, otherToken, 'PUT', `/api/company-certificate-scheme/${scheme}`, numbered('QMS/K/2')))
        .statusCode,
    ).toBe(200);
    expect((await shown()).audit?.cert_number).toBe('QMS/K/2');
    const typeRenamed = await call(
      ctx.app,
      ctx.adminToken,
      'PUT',
      `/api/certification/${type}`,
      certificationTypeBody(alfa, 'ISO 9001:2015'),
    );
    expect(typeRenamed.statusCode).toBe(200);
    expect((await shown()).audit?.certification).toBe('ISO 9001:2015');

    // The audit moved (the other app): both follow.
    const moved = await call(
      other,
      otherToken,
      'PUT',
      `/api/planned-audit/${audit.id}`,
      plannedAuditBody(scheme, lead.id, '2026-03-17', '2026-03-18'),
    );
    expect(moved.statusCode).toBe(200);
    now = await shown();
    expect(now.audit?.dates).toEqual(['2026-03-17', '2026-03-18']);
    expect(now.calendar[0]?.days).toEqual(['2026-03-17', '2026-03-18']);

    // The auditor made inactive (the other app): gone from the calendar, still named on the audit.
    expect(
      (await call(other, otherToken, 'PUT', `/api/auditor/${lead.id}`, leadBody('Lina Baru', 'false')))
        .statusCode,
    ).toBe(200);
    now = await shown();
    expect(now.calendar).toEqual([]);
    expect(now.audit?.team).toEqual(['Lina Baru']);

    // The scheme deleted (this app): its audit goes with it.
    expect(
      (await call(ctx.app, ctx.adminToken, 'DELETE', `/api/company-certificate-scheme/${scheme}`)).statusCode,
    ).toBe(200);
    expect((await shown()).audit).toBeUndefined();
  });

  it('answer a compressed form that reads back as the plain answer, once made kept alike', async () => {
    const rekan = await call(ctx.app, ctx.adminToken, 'POST', '/api/auditor', leadBody('Rina Rekan'));
    for (const week of ['06', '13', '20', '27']) {
      const day = `2026-04-${week}`;
      const scheme = await ctx.make.scheme({ company: alfa, type });
      const body = plannedAuditBody(scheme, rekan.json<Auditor>().id, day, day, { audit_days: 1 });
      const res = await call(ctx.app, ctx.adminToken, 'POST', '/api/planned-audit', body);
      expect(res.statusCode).toBe(201);
    }
    const url = `/api/planned-audit?company_id=${alfa}&paginate=200`;
    const plain = await call(ctx.app, ctx.adminToken, 'GET', url);
    expect(plain.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.json<ListResponse<PlannedAudit>>().total).toBe(4);
    expect(plain.rawPayload.length).toBeGreaterThan(1024);
    for (const [encoding, decode] of [
      ['br', zlib.brotliDecompressSync],
      ['gzip', zlib.gunzipSync],
    ] as const) {
      for (let i = 0; i < 2; i++) {
        const res = await ctx.app.inject({
          method: 'GET',
          url,
          headers: { authorization: `Bearer ${ctx.adminToken}`, 'accept-encoding': encoding },
        });
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-encoding']).toBe(encoding);
        expect(res.headers.vary).toMatch(/Accept-Encoding/);
        expect(decode(res.rawPayload).toString()).toBe(plain.body);
      }
    }
  });

  it('keep one company’s answer from another company’s staff, and refuse them as before', async () => {
    const { alfa: own, editor } = await ctx.make.cast('simpan', 'Simpan', { editor: ['audit-plan'] });
    // Asked (and kept) by the administrator first: a scoped user of another company still gets 403.
    expect((await call(ctx.app, ctx.adminToken, 'GET', LIST())).statusCode).toBe(200);
    expect((await call(ctx.app, editor.token, 'GET', LIST())).statusCode).toBe(403);
    expect((await call(ctx.app, editor.token, 'GET', CALENDAR())).statusCode).toBe(403);
    const theirs = await call(ctx.app, editor.token, 'GET', `/api/planned-audit?company_id=${own}`);
    expect(theirs.json<ListResponse<PlannedAudit>>().data).toEqual([]);
    const everyone = await call(ctx.app, editor.token, 'GET', '/api/planned-audit');
    expect(everyone.json<ListResponse<PlannedAudit>>().data.every((a) => a.company_id !== alfa)).toBe(true);
  });
});
