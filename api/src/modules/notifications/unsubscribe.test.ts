/**
 * The reminders' unsubscribe link (docs/rules.md#notifications), end to end over real sockets: the
 * reminder as a loopback SMTP server receives it carries `List-Unsubscribe` and
 * `List-Unsubscribe-Post` and the same link in its text; the link, fetched from the listening API,
 * shows a page (GET, nothing changes) and turns 'Kirim pengingat ke klien' off (the one-click POST),
 * as the client record's audited write by the system; the next step sends nothing. A tampered link,
 * another client's, or one made for an old address answers 403 and changes nothing.
 */
import { and, eq } from 'drizzle-orm';
import { addDays } from '@sertifikasi/shared-contracts';
import { freePort } from '../../db/embedded';
import { auditLog } from '../../db/schema';
import { sendDueMail } from '../../notify/mail';
import { runReminders } from '../../notify/remind';
import { ADMIN_PASSWORD, call, createTestContext, login, type TestContext } from '../../../test/helpers';
import { type Receiver, startSmtp } from '../../../test/receivers';

interface Arrived {
  to: string[];
  /** The header lines, unfolded, by lower-case name. */
  headers: Map<string, string>;
  /** The plain text, quoted-printable decoded. */
  text: string;
}

function readMessage(to: string[], raw: string): Arrived {
  const [head = '', ...rest] = raw.split(/\r?\n\r?\n/);
  const headers = new Map(
    head
      .replace(/\r?\n[ \t]+/g, ' ')
      .split(/\r?\n/)
      .map((line) => [
        line.slice(0, line.indexOf(':')).toLowerCase(),
        line.slice(line.indexOf(':') + 1).trim(),
      ]),
  );
  const text = rest
    .join('\n\n')
    .replace(/=\r?\n/g, '')
    .replace(/(=[0-9A-F]{2})+/g, (m) =>
      Buffer.from(
        m
          .split('=')
          .slice(1)
          .map((h) => parseInt(h, 16)),
      ).toString('utf8'),
    );
  return { to, headers, text };
}

let ctx: TestContext;
/** The administrator's token, signed in again whenever the clock moves on (sessions age with it). */
let token: string;
let smtp: Receiver;
let origin: string;
const arrived: Arrived[] = [];
let company: string;
let due: string;
const clients: Record<string, string> = {};

const DAY = (date: string) => new Date(`${date}T01:00:00Z`);

/** The reminder run and the sender of one day; answers what arrived. */
async function day(date: string): Promise<Arrived[]> {
  ctx.clock.set(DAY(date));
  token = await login(ctx.app, 'admin', ADMIN_PASSWORD);
  const before = arrived.length;
  await runReminders(ctx.database.db, ctx.clock, ctx.app.config);
  while ((await sendDueMail(ctx.database.db, ctx.clock, ctx.app.mailer)).tried > 0);
  return arrived.slice(before);
}

const clientOf = async (id: string) =>
  (await call(ctx.app, token, 'GET', `/api/company-certificate/${company}/${id}`)).json<{
    send_reminders: string;
    email: string;
    name: string;
  }>();

const linkTo = (mail: Arrived) => /^<(.+)>$/.exec(mail.headers.get('list-unsubscribe') ?? '')?.[1] ?? '';

beforeAll(async () => {
  smtp = await startSmtp((to, raw) => arrived.push(readMessage(to, raw)));
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  ctx = await createTestContext(
    {
      SMTP_URL: smtp.url,
      // The loopback SMTP server has no TLS (TLS itself: notify/mail-tls.test.ts).
      SMTP_INSECURE: 'true',
      PUBLIC_BASE_URL: origin,
    },
    { now: DAY('2026-01-15') },
  );
  await ctx.app.listen({ port, host: '127.0.0.1' });
  company = await ctx.make.company('PT LSP Mutu');
  const type = await ctx.make.certificationType(company, 'ISO 9001:2015');
  for (const [key, name, email] of [
    ['maju', 'PT Maju Bersama', 'mutu@majubersama.test'],
    ['tetap', 'PT Tetap Ingin', 'kualitas@tetap.test'],
  ] as const) {
    clients[key] = await ctx.make.client(company, name, { email });
    await ctx.make.scheme({
      company,
      type,
      client: clients[key],
      status: 'ACTIVE',
      issue_date: '2025-06-01',
      cert_number: `QMS/${key}`,
    });
  }
  due = '2026-06-01';
});
afterAll(async () => {
  await ctx.close();
  await smtp.close();
});

describe('the unsubscribe link of a reminder', () => {
  let maju: Arrived;
  let tetap: Arrived;

  it('comes with every reminder: List-Unsubscribe, one-click, and in the text', async () => {
    const mails = await day(addDays(due, -30));
    expect(mails.map((m) => m.to)).toEqual(
      expect.arrayContaining([['mutu@majubersama.test'], ['kualitas@tetap.test']]),
    );
    maju = mails.find((m) => m.to.includes('mutu@majubersama.test'))!;
    tetap = mails.find((m) => m.to.includes('kualitas@tetap.test'))!;
    const link = linkTo(maju);
    expect(link).toMatch(
      new RegExp(`^${origin}/api/unsubscribe/${clients.maju}/[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]{43}$`),
    );
    expect(maju.headers.get('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    expect(maju.text).toContain(`Tidak ingin menerima pengingat ini lagi? Berhenti berlangganan: ${link}`);
    // Each client's own link.
    expect(linkTo(tetap)).toContain(`/api/unsubscribe/${clients.tetap}/`);
  });

  it('shows what it stops (GET) and changes nothing', async () => {
    const res = await fetch(linkTo(maju));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await res.text();
    expect(html).toContain('Berhenti menerima pengingat sertifikasi dari PT LSP Mutu di');
    expect(html).toContain('<b>mutu@majubersama.test</b> (PT Maju Bersama)');
    expect(html).toContain('<button type="submit">Berhenti menerima pengingat</button>');
    expect((await clientOf(clients.maju!)).send_reminders).toBe('true');
  });

  it('a tampered link, another client’s, or one of an unknown key: 403, nothing changes', async () => {
    const link = linkTo(tetap);
    const mac = link.slice(link.lastIndexOf('.') + 1);
    const flipped = `${link.slice(0, -mac.length)}${mac[0] === 'A' ? 'B' : 'A'}${mac.slice(1)}`;
    const otherClient = link.replace(clients.tetap!, clients.maju!);
    const unknownKey = link.replace(/\/[A-Za-z0-9_-]+\.(?=[A-Za-z0-9_-]{43}$)/, '/zzzzzzzz.');
    for (const bad of [flipped, otherClient, unknownKey, `${origin}/api/unsubscribe/bukan-id/x.y`]) {
      for (const method of ['GET', 'POST']) {
        const res = await fetch(bad, {
          method,
          ...(method === 'POST'
            ? {
                headers: { 'content-type': 'application/x-www-form-urlencoded' },
                body: 'List-Unsubscribe=One-Click',
              }
            : {}),
        });
        expect([bad, method, res.status]).toEqual([bad, method, 403]);
        expect(await res.json()).toEqual({
          code: expect.any(String),
          message: 'Tautan berhenti berlangganan tidak valid atau sudah tidak berlaku',
        });
      }
    }
    for (const id of [clients.maju!, clients.tetap!])
      expect((await clientOf(id)).send_reminders).toBe('true');
  });

  it('turns the client’s reminders off with one POST (RFC 8058), audited as the system; no more reminders', async () => {
    const res = await fetch(linkTo(maju), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('Pengingat sertifikasi dari PT LSP Mutu tidak lagi dikirim ke');
    const client = await clientOf(clients.maju!);
    // Only the switch changed.
    expect(client).toMatchObject({
      send_reminders: 'false',
      email: 'mutu@majubersama.test',
      name: 'PT Maju Bersama',
    });
    const audits = await ctx.database.db
      .select()
      .from(auditLog)
      .where(
        and(
          eq(auditLog.entity, 'company-certificate'),
          eq(auditLog.entity_id, clients.maju!),
          eq(auditLog.action, 'update'),
        ),
      );
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({ actor_id: null, source: 'system' });
    expect([
      (audits[0]!.before as { send_reminders: string }).send_reminders,
      (audits[0]!.after as { send_reminders: string }).send_reminders,
    ]).toEqual(['true', 'false']);
    // Followed again (a second click, a mail program's retry, as multipart form data, which RFC 8058
    // prefers): done already, nothing written.
    const form = new FormData();
    form.append('List-Unsubscribe', 'One-Click');
    const again = await fetch(linkTo(maju), { method: 'POST', body: form });
    expect(again.status).toBe(200);
    const page = await (await fetch(linkTo(maju))).text();
    expect(page).toContain('Sudah berhenti.');
    expect(page).not.toContain('<form');
    expect(
      await ctx.database.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.entity_id, clients.maju!), eq(auditLog.action, 'update'))),
    ).toHaveLength(1);
    // The next step reaches the other client only.
    expect((await day(addDays(due, -7))).map((m) => m.to)).toEqual([['kualitas@tetap.test']]);
  });

  it('a link made for an address the client no longer has stops nothing', async () => {
    const before = await clientOf(clients.tetap!);
    const moved = await call(ctx.app, token, 'PUT', `/api/company-certificate/${clients.tetap}`, {
      company_id: company,
      name: before.name,
      certificate_number: 'CL-TETAP',
      region: 'Jakarta',
      email: 'baru@tetap.test',
    });
    expect(moved.statusCode).toBe(200);
    const res = await fetch(linkTo(tetap), { method: 'POST' });
    expect(res.status).toBe(403);
    expect((await clientOf(clients.tetap!)).send_reminders).toBe('true');
  });
});

describe('the unsubscribe route', () => {
  it('is rate limited per address like the public checks (RATE_LIMIT_PUBLIC)', async () => {
    const limited = await createTestContext({ RATE_LIMIT_PUBLIC: '2' });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++)
        statuses.push(
          (await limited.app.inject({ method: 'POST', url: `/api/unsubscribe/${clients.maju}/x.y` }))
            .statusCode,
        );
      expect(statuses).toEqual([403, 403, 429]);
    } finally {
      await limited.close();
    }
  });
});
