// Long file: the certification services called without HTTP and their after-write steps share one set of companies, types, clients and a staff actor.
/**
 * The certification services without HTTP (docs/conventions.md#inside-the-api): writes made by calling the services inside
 * one transaction, as the import and the demo generator will, with the audit trail, the status
 * history and the after-write steps a user and later work rely on.
 */
import { and, asc, eq, inArray } from 'drizzle-orm';
import {
  clientCertificateInputSchema,
  schemeInputSchema,
  type SchemeStatus,
} from '@sertifikasi/shared-contracts';
import type { Executor } from '../../db';
import { auditLog, clientCertificates, schemes } from '../../db/schema';
import { createClock } from '../../lib/clock';
import { AFTER_WRITE_STEPS, type AfterWriteStep, type WriteEvent } from '../../services/after-write';
import type { SignedFields } from '@sertifikasi/shared-contracts/credential';
import { type Actor, type ServiceContext, systemActor } from '../../services/context';
import { schemeStatusHistory } from '../../services/scheme-history';
import { call, useTestContext } from '../../../test/helpers';
import { clientCertificateService } from '../client-certificates/client-certificates.service';
import { signedQrStep } from '../../services/signed-qr';
import { schemeBody } from '../../../test/forms';
import { verifiedQrUrl } from '../../../test/signed';
import { findScheme } from './schemes.repository';
import { schemeService } from './schemes.service';

const TZ = 'Asia/Jakarta';
const BASE = 'https://sertifikasi.example.id';

const t = useTestContext({ TZ, PUBLIC_BASE_URL: BASE });
let companyA: string;
let companyB: string;
let typeA: string;
let typeB: string;
let bodyA: string;
let staff: { id: string; token: string };

beforeAll(async () => {
  const { make } = t;
  companyA = await make.company('PT Layanan Alpha');
  companyB = await make.company('PT Layanan Beta');
  typeA = await make.certificationType(companyA, 'ISO 9001:2015');
  typeB = await make.certificationType(companyB, 'ISO 14001:2015');
  bodyA = await make.accreditationBody(companyA, 'KAN');
  const role = await make.role('Staf Impor', [
    'company-certificate',
    'company-certificate:create',
    'company-certificate:edit',
    'company-certificate:delete',
  ]);
  staff = await make.user({ username: 'staf.impor', roles_id: role, company_ids: [companyA] });
});

/** The staff user of company A as an actor, as the import would pass them. */
const staffActor = (requestId: string | null = 'req-import-1'): Actor => ({
  user: { id: staff.id, username: 'staf.impor' },
  permissions: new Set(['company-certificate', 'company-certificate:create']),
  scope: [companyA],
  requestId,
  source: 'import',
});

/** A client input as a form (or an import row) sends it, validated by the form's own schema. */
const clientInput = (number: string, over: Record<string, unknown> = {}) =>
  clientCertificateInputSchema.validateSync({
    company_id: companyA,
    name: 'PT Klien Layanan',
    certificate_number: number,
    region: 'Bandung',
    ...over,
  });

const schemeInput = (clientId: string, number: string, over: Record<string, unknown> = {}) =>
  schemeInputSchema.validateSync(
    schemeBody(clientId, typeA, {
      cert_number: number,
      is_accredited: 'true',
      accredited_id: bodyA,
      ...over,
    }),
  );

const contextIn = (
  tx: Executor,
  actor: Actor,
  clock = t.app.clock,
  steps?: AfterWriteStep[],
): ServiceContext => ({
  tx,
  actor,
  clock,
  config: t.app.config,
  ...(steps ? { afterWriteSteps: steps } : {}),
});

const auditOf = (ids: string[]) =>
  t.database.db.select().from(auditLog).where(inArray(auditLog.entity_id, ids)).orderBy(asc(auditLog.at));

describe('certification services without HTTP', () => {
  it('creates a client and a scheme, changes the status and deletes the scheme in one transaction, audited with its history', async () => {
    const clock = createClock(TZ);
    const created = new Date('2025-03-03T02:00:00Z'); // 09:00 in Jakarta
    const suspended = new Date('2025-03-05T18:30:00Z'); // 01:30 on 6 March in Jakarta
    const deleted = new Date('2025-03-07T03:00:00Z');

    const { client, scheme, changed, removed } = await t.database.db.transaction(async (tx) => {
      const ctx = contextIn(tx, staffActor(), clock);
      clock.set(created);
      const client = await clientCertificateService.create(ctx, clientInput('SVC-KL-001'));
      const scheme = await schemeService.create(ctx, schemeInput(client.id, 'SVC/QMS/001'));
      clock.set(suspended);
      const changed = await schemeService.changeStatus(ctx, scheme.id, 'SUSPENDED');
      clock.set(deleted);
      const removed = await schemeService.remove(ctx, scheme.id);
      return { client, scheme, changed, removed };
    });

    // What the services answer is what the routes answer.
    expect(client).toMatchObject({
      company_id: companyA,
      company: { id: companyA, name: 'PT Layanan Alpha' },
      certificate_number: 'SVC-KL-001',
      created_at: created.toISOString(),
      updated_at: created.toISOString(),
    });
    expect(scheme).toMatchObject({
      certificate_id: client.id,
      client_name: 'PT Klien Layanan',
      cert_name: 'ISO 9001:2015',
      accredited: 'KAN',
      status: 'ACTIVE',
      expired_date: '2028-01-10',
      qrcode: null,
    });
    expect(changed).toMatchObject({
      id: scheme.id,
      status: 'SUSPENDED',
      updated_at: suspended.toISOString(),
    });
    expect(removed).toEqual({ success: true, message: expect.any(String) });

    // The client stays (now without schemes), as its detail page shows it; the scheme is gone.
    const detail = await call(
      t.app,
      t.adminToken,
      'GET',
      `/api/company-certificate/${companyA}/${client.id}`,
    );
    expect(detail.statusCode).toBe(200);
    expect(detail.json()).toMatchObject({ id: client.id, schema: [] });
    expect(await t.database.db.select().from(schemes).where(eq(schemes.id, scheme.id))).toEqual([]);

    // Who did what, when, from which request: one row per write.
    const trail = await auditOf([client.id, scheme.id]);
    const statusOf = (v: unknown) => (v as { status?: string } | null)?.status ?? null;
    expect(
      trail.map((r) => [r.action, r.entity, r.at.toISOString(), statusOf(r.before), statusOf(r.after)]),
    ).toEqual([
      ['create', 'company-certificate', created.toISOString(), null, null],
      ['create', 'company-certificate-scheme', created.toISOString(), null, 'ACTIVE'],
      ['update', 'company-certificate-scheme', suspended.toISOString(), 'ACTIVE', 'SUSPENDED'],
      ['delete', 'company-certificate-scheme', deleted.toISOString(), 'SUSPENDED', null],
    ]);
    for (const r of trail) {
      expect({
        actor_id: r.actor_id,
        actor: r.actor_username,
        request: r.request_id,
        company: r.company_id,
      }).toEqual({
        actor_id: staff.id,
        actor: 'staf.impor',
        request: 'req-import-1',
        company: companyA,
      });
    }
    expect(trail[0]!.after).toMatchObject({ name: 'PT Klien Layanan', certificate_number: 'SVC-KL-001' });

    // The status history as the scheme card shows it: created ACTIVE from its issue date, suspended
    // on 6 March in the deployment's time zone (the instant was still 5 March in UTC), by the staff.
    expect(await schemeStatusHistory(t.database.db, scheme.id, createClock(TZ))).toEqual([
      { from: null, to: 'ACTIVE', at: created.toISOString(), effective_from: '2025-01-10', by: 'staf.impor' },
      {
        from: 'ACTIVE',
        to: 'SUSPENDED',
        at: suspended.toISOString(),
        effective_from: '2025-03-06',
        by: 'staf.impor',
      },
    ]);
  });

  it('writes as the system with no user and no request id', async () => {
    const client = await t.database.db.transaction((tx) =>
      clientCertificateService.create(contextIn(tx, systemActor('demo')), clientInput('SVC-SYS-001')),
    );
    const [row] = await auditOf([client.id]);
    expect(row).toMatchObject({
      action: 'create',
      actor_id: null,
      actor_username: null,
      request_id: null,
    });
  });

  it('checks the scope and the client’s company as the forms do: 404 outside the scope, 422 for a type of another company', async () => {
    const other = await t.database.db.transaction((tx) =>
      clientCertificateService.create(
        contextIn(tx, systemActor()),
        clientInput('SVC-B-001', { company_id: companyB }),
      ),
    );
    const mine = await t.database.db.transaction((tx) =>
      clientCertificateService.create(contextIn(tx, staffActor()), clientInput('SVC-A-002')),
    );
    await expect(
      t.database.db.transaction((tx) =>
        schemeService.create(
          contextIn(tx, staffActor()),
          schemeInput(other.id, 'SVC/B/1', { certification_id: typeB, is_accredited: 'false' }),
        ),
      ),
    ).rejects.toMatchObject({ statusCode: 404 });
    await expect(
      t.database.db.transaction((tx) =>
        schemeService.create(
          contextIn(tx, staffActor()),
          schemeInput(mine.id, 'SVC/A/9', { certification_id: typeB }),
        ),
      ),
    ).rejects.toMatchObject({
      statusCode: 422,
      errors: { certification_id: 'Sertifikat tidak ditemukan pada perusahaan klien' },
    });
    await expect(
      t.database.db.transaction((tx) =>
        clientCertificateService.remove(contextIn(tx, staffActor()), other.id),
      ),
    ).rejects.toMatchObject({ statusCode: 404 });
    await expect(
      t.database.db.transaction((tx) =>
        schemeService.changeStatus(contextIn(tx, systemActor()), mine.id, 'EXPIRED' as SchemeStatus),
      ),
    ).rejects.toMatchObject({ statusCode: 422, errors: { status: expect.stringContaining('Status') } });
    expect(await auditOf([other.id, mine.id])).toHaveLength(2);
  });

  it('a batch of schemes answers and audits each as the API reads it back', async () => {
    const { client, answers } = await t.database.db.transaction(async (tx) => {
      const ctx = contextIn(tx, staffActor());
      const client = await clientCertificateService.create(ctx, clientInput('SVC-BATCH-001'));
      const answers = await schemeService.createMany(ctx, [
        schemeInput(client.id, 'SVC/BATCH/1', { desc: 'Lingkup pertama', surveillance_date: '2025-12-01' }),
        schemeInput(client.id, 'SVC/BATCH/2', { is_accredited: 'false', status: 'SUSPENDED' }),
        schemeInput(client.id, 'SVC/BATCH/3', {
          accredited_id: bodyA.toUpperCase(),
          issue_date: '2020-02-29',
          valid_for: 18,
          valid_for_type: 'MONTH',
          decision_date: '2020-02-20',
        }),
      ]);
      return { client, answers };
    });
    const today = t.app.clock.today();
    const read = await Promise.all(answers.map((a) => findScheme(t.database.db, a.id, 'ALL', today)));
    expect(answers).toEqual(read);
    expect(answers.map((a) => [a.client_name, a.cert_name, a.accredited])).toEqual([
      ['PT Klien Layanan', 'ISO 9001:2015', 'KAN'],
      ['PT Klien Layanan', 'ISO 9001:2015', null],
      ['PT Klien Layanan', 'ISO 9001:2015', 'KAN'],
    ]);
    const audits = await auditOf(answers.map((a) => a.id));
    expect(audits.map((r) => [r.entity_id, r.action, r.company_id])).toEqual(
      expect.arrayContaining(answers.map((a) => [a.id, 'create', companyA])),
    );
    for (const answer of read) expect(audits.find((r) => r.entity_id === answer!.id)!.after).toEqual(answer);
    expect(client.id).toBe(answers[0]!.certificate_id);
  });
});

describe('after-write steps', () => {
  /** A step that records each event with the stored row it can read in the same transaction. */
  function recorder() {
    const seen: { event: WriteEvent; stored: unknown }[] = [];
    const step: AfterWriteStep = async (ctx, event) => {
      const table = event.entity === 'scheme' ? schemes : clientCertificates;
      const [stored] = await ctx.tx.select().from(table).where(eq(table.id, event.id));
      seen.push({ event, stored: stored ?? null });
    };
    return { seen, step };
  }

  it('receive one event per write with the stored rows before and after, inside the transaction', async () => {
    const { seen, step } = recorder();
    const ids = await t.database.db.transaction(async (tx) => {
      const ctx = contextIn(tx, staffActor(), t.app.clock, [step]);
      const client = await clientCertificateService.create(ctx, clientInput('SVC-EV-001'));
      await clientCertificateService.update(
        ctx,
        client.id,
        clientInput('SVC-EV-001', { region: 'Surabaya' }),
      );
      const scheme = await schemeService.create(ctx, schemeInput(client.id, 'SVC/EV/001'));
      await schemeService.update(
        ctx,
        scheme.id,
        schemeInput(client.id, 'SVC/EV/001', { issue_date: '2025-02-01' }),
      );
      await schemeService.refreshQr(ctx, scheme.id);
      await schemeService.changeStatus(ctx, scheme.id, 'WITHDRAWN');
      // The status it already has: nothing is written, so no event.
      await schemeService.changeStatus(ctx, scheme.id, 'WITHDRAWN');
      await schemeService.update(
        ctx,
        scheme.id,
        schemeInput(client.id, 'SVC/EV/002', { status: 'WITHDRAWN', issue_date: '2025-02-01' }),
      );
      await schemeService.remove(ctx, scheme.id);
      await clientCertificateService.remove(ctx, client.id);
      return { client: client.id, scheme: scheme.id };
    });

    expect(seen.map(({ event }) => [event.entity, event.action, event.id])).toEqual([
      ['client-certificate', 'create', ids.client],
      ['client-certificate', 'update', ids.client],
      ['scheme', 'create', ids.scheme],
      ['scheme', 'update', ids.scheme],
      ['scheme', 'update', ids.scheme],
      ['scheme', 'update', ids.scheme],
      ['scheme', 'update', ids.scheme],
      ['scheme', 'delete', ids.scheme],
      ['client-certificate', 'delete', ids.client],
    ]);
    // `after` is the row as stored at that moment; `before` the row the previous write stored.
    let previous: Record<string, unknown> = {};
    for (const { event, stored } of seen) {
      expect(event.after).toEqual(stored);
      expect(event.before).toEqual(event.action === 'create' ? null : previous[event.entity]);
      previous = { ...previous, [event.entity]: event.after };
    }
    const schemeEvents = seen.filter(({ event }) => event.entity === 'scheme').map(({ event }) => event);
    type S = typeof schemes.$inferSelect;
    const [created, updated, qr, status, renumbered, removed] = schemeEvents as {
      before: S | null;
      after: S | null;
    }[];
    expect(created!.after).toMatchObject({ status: 'ACTIVE', expired_date: '2028-01-10', qrcode: null });
    expect(updated!.after).toMatchObject({
      issue_date: '2025-02-01',
      expired_date: '2028-02-01',
      qrcode: null,
    });
    const signed = (number: string): SignedFields => ({
      number,
      name: 'PT Klien Layanan',
      standard: 'ISO 9001:2015',
      issue: '2025-02-01',
      expiry: '2028-02-01',
    });
    expect(await verifiedQrUrl(t.app, qr!.after!.qrcode!, signed('SVC/EV/001'))).toBe(
      `${BASE}/check-certification-company?cert=SVC%2FEV%2F001`,
    );
    expect(status!.before!.status).toBe('ACTIVE');
    expect(status!.after!.status).toBe('WITHDRAWN');
    // The service leaves a stored QR to the signed-QR step (not run here: only the recorder is),
    // which makes it again for the new number (credentials.test.ts).
    expect(renumbered!.after!.qrcode).toBe(qr!.after!.qrcode);
    expect(AFTER_WRITE_STEPS).toContain(signedQrStep);
    expect(removed!.before!.cert_number).toBe('SVC/EV/002');
    expect(removed!.after).toBeNull();
    // No audit row for the status it already had.
    expect((await auditOf([ids.scheme])).map((r) => r.action)).toEqual([
      'create',
      'update',
      'update',
      'update',
      'update',
      'delete',
    ]);
  });

  it('a step that throws rolls the write back: nothing stored, no audit row', async () => {
    const failing: AfterWriteStep = async () => {
      throw new Error('count table unavailable');
    };
    await expect(
      t.database.db.transaction((tx) =>
        clientCertificateService.create(
          contextIn(tx, staffActor(), t.app.clock, [failing]),
          clientInput('SVC-RB-001'),
        ),
      ),
    ).rejects.toThrow('count table unavailable');
    const found = await t.database.db
      .select()
      .from(clientCertificates)
      .where(
        and(
          eq(clientCertificates.company_id, companyA),
          eq(clientCertificates.certificate_number, 'SVC-RB-001'),
        ),
      );
    expect(found).toEqual([]);

    // A status change rolled back leaves the scheme, its audit trail and its history as they were.
    const { client, scheme } = await t.database.db.transaction(async (tx) => {
      const ctx = contextIn(tx, staffActor());
      const client = await clientCertificateService.create(ctx, clientInput('SVC-RB-002'));
      return { client, scheme: await schemeService.create(ctx, schemeInput(client.id, 'SVC/RB/002')) };
    });
    const trailBefore = await auditOf([client.id, scheme.id]);
    await expect(
      t.database.db.transaction((tx) =>
        schemeService.changeStatus(
          contextIn(tx, staffActor(), t.app.clock, [failing]),
          scheme.id,
          'SUSPENDED',
        ),
      ),
    ).rejects.toThrow('count table unavailable');
    await expect(
      t.database.db.transaction((tx) =>
        schemeService.remove(contextIn(tx, staffActor(), t.app.clock, [failing]), scheme.id),
      ),
    ).rejects.toThrow('count table unavailable');
    const [stored] = await t.database.db.select().from(schemes).where(eq(schemes.id, scheme.id));
    expect(stored).toMatchObject({ status: 'ACTIVE', cert_number: 'SVC/RB/002' });
    expect(await auditOf([client.id, scheme.id])).toEqual(trailBefore);
    expect((await schemeStatusHistory(t.database.db, scheme.id, createClock(TZ))).map((e) => e.to)).toEqual([
      'ACTIVE',
    ]);
  });
});
