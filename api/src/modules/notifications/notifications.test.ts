/**
 * 'Log Notifikasi' routes: the outbox of the caller's companies only, its filters, and 'Kirim
 * Ulang' putting a failed message back in the queue, and no other.
 */
import { and, eq } from 'drizzle-orm';
import { auditLog, mailOutbox } from '../../db/schema';
import { call, useTestContext } from '../../../test/helpers';
import type { SignedIn } from '../../../test/fixtures';

const ctx = useTestContext({}, { now: new Date('2026-03-02T02:00:00Z') });
let alfa: string;
let beta: string;
let alfaUser: SignedIn;
const ids: Record<string, string> = {};

beforeAll(async () => {
  ({ alfa, beta, editor: alfaUser } = await ctx.make.cast('log', 'Log', { editor: ['notification-log'] }));
  const mail: typeof ctx.make.mail = (company, over) => ctx.make.mail(company, over);
  ids.alfaSent = await mail(alfa, {
    recipient: 'direktur@alfa-klien.test',
    created_at: new Date('2026-03-01T01:00:00Z'),
  });
  ids.alfaFailed = await mail(alfa, {
    recipient: 'salah@alfa-klien.test',
    kind: 'expiry-reminder',
    subject: 'Pengingat: berakhirnya masa berlaku sertifikat QMS/1',
    state: 'failed',
    attempts: 10,
    last_error: 'Gagal mengirim email: 550 Mailbox unavailable',
    created_at: new Date('2026-03-01T02:00:00Z'),
  });
  ids.alfaQueued = await mail(alfa, {
    state: 'queued',
    created_at: new Date('2026-03-01T03:00:00Z'),
  });
  ids.beta = await mail(beta, { recipient: 'direktur@beta-klien.test' });
  ids.digest = await mail(null, { kind: 'weekly-digest', recipient: 'admin@lsp.test' });
});

const idsOf = (res: { json(): { data: { id: string }[] } }) => res.json().data.map((r) => r.id);

describe('GET /api/notification-log', () => {
  it('lists the caller’s companies only, newest first; a message about several companies only for ALL', async () => {
    const mine = await call(ctx.app, alfaUser.token, 'GET', '/api/notification-log?company_id=ALL');
    expect(mine.statusCode).toBe(200);
    expect(idsOf(mine)).toEqual([ids.alfaQueued, ids.alfaFailed, ids.alfaSent]);
    expect(mine.json()).toMatchObject({ total: 3, current_page: 1, per_page: 20 });
    expect(mine.json().data[1]).toMatchObject({
      company: { id: alfa, name: 'PT Alfa Log' },
      recipient: 'salah@alfa-klien.test',
      kind: 'expiry-reminder',
      state: 'failed',
      attempts: 10,
      last_error: 'Gagal mengirim email: 550 Mailbox unavailable',
    });
    expect(mine.body).not.toContain('Yth.');
    expect(
      (await call(ctx.app, alfaUser.token, 'GET', `/api/notification-log?company_id=${beta}`)).statusCode,
    ).toBe(403);
    const everything = await call(ctx.app, ctx.adminToken, 'GET', '/api/notification-log');
    expect(idsOf(everything)).toEqual(expect.arrayContaining([ids.beta, ids.digest]));
    const one = await call(ctx.app, ctx.adminToken, 'GET', `/api/notification-log?company_id=${beta}`);
    expect(idsOf(one)).toEqual([ids.beta]);
  });

  it('filters by state, kind and text', async () => {
    const get = async (q: string) =>
      idsOf(await call(ctx.app, alfaUser.token, 'GET', `/api/notification-log?${q}`));
    expect(await get('state=failed')).toEqual([ids.alfaFailed]);
    expect(await get('state=sent')).toEqual([ids.alfaSent]);
    expect(await get('kind=expiry-reminder')).toEqual([ids.alfaFailed]);
    expect(await get('search=DIREKTUR')).toEqual([ids.alfaSent]);
    expect(await get('search=QMS/1')).toEqual([ids.alfaFailed]);
    const bad = await call(ctx.app, alfaUser.token, 'GET', '/api/notification-log?state=lost');
    expect([bad.statusCode, Object.keys(bad.json().errors)]).toEqual([422, ['state']]);
  });
});

describe('POST /api/notification-log/{id}/resend (Kirim Ulang)', () => {
  it('puts a failed message back in the queue, due now, its tries afresh', async () => {
    const res = await call(ctx.app, alfaUser.token, 'POST', `/api/notification-log/${ids.alfaFailed}/resend`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      state: 'queued',
      attempts: 0,
      last_error: null,
      next_attempt_at: '2026-03-02T02:00:00.000Z',
    });
    // Audited like any write: who, the message before and after.
    const [logged] = await ctx.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'notification-log'), eq(auditLog.entity_id, ids.alfaFailed!)));
    expect(logged).toMatchObject({
      action: 'update',
      before: expect.objectContaining({ state: 'failed' }),
      after: expect.objectContaining({ state: 'queued', attempts: 0 }),
    });
  });

  it('refuses a message sent or still queued (nothing changes), and one outside the scope as missing', async () => {
    const resend = (id: string) =>
      call(ctx.app, alfaUser.token, 'POST', `/api/notification-log/${id}/resend`);
    const rowOf = async (id: string) =>
      (await ctx.database.db.select().from(mailOutbox).where(eq(mailOutbox.id, id)))[0]!;
    const sentBefore = await rowOf(ids.alfaSent!);
    const sent = await resend(ids.alfaSent!);
    expect([sent.statusCode, sent.json()]).toEqual([
      422,
      {
        code: 'validation',
        message:
          'Pesan sudah terkirim dan tidak dikirim ulang: hanya pesan yang gagal yang dapat dikirim ulang',
      },
    ]);
    expect(await rowOf(ids.alfaSent!)).toEqual(sentBefore);
    const queued = await resend(ids.alfaQueued!);
    expect(queued.statusCode).toBe(422);
    expect(queued.json().message).toBe('Pesan masih dalam antrean pengiriman');
    // The failed one, once put back in the queue, is not put back twice.
    const twice = await resend(ids.alfaFailed!);
    expect([twice.statusCode, twice.json().message]).toEqual([422, 'Pesan masih dalam antrean pengiriman']);
    const audits = await ctx.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.entity, 'notification-log'));
    expect(audits.map((a) => a.entity_id)).toEqual([ids.alfaFailed]);
    for (const id of [ids.beta, ids.digest]) {
      const res = await call(ctx.app, alfaUser.token, 'POST', `/api/notification-log/${id}/resend`);
      expect(res.statusCode).toBe(404);
    }
  });
});
