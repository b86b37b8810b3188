/**
 * TLS of SMTP (docs/rules.md#notifications) against real SMTP servers on loopback ports (smtp-server):
 * `smtp://` sends nothing, not even the login, to a server that offers no STARTTLS or whose
 * certificate is not valid, unless SMTP_INSECURE=true; the message stays in the queue saying why.
 */
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { loadConfig } from '../config';
import { mailOutbox } from '../db/schema';
import { createTestContext, type TestContext } from '../../test/helpers';
import { createMailer, queueMail, sendDueMail } from './mail';

/** What one server saw: logins (with the password), messages, and whether each was over TLS. */
interface Seen {
  logins: { user: string; password: string; secure: boolean }[];
  messages: { to: string[]; secure: boolean }[];
}

interface Server {
  url: string;
  seen: Seen;
  close(): Promise<void>;
}

/**
 * An SMTP server that takes a login even in plain text (so a client willing to send it would):
 * with STARTTLS (smtp-server's own self-signed certificate) or without.
 */
async function startServer(startTls: boolean): Promise<Server> {
  const seen: Seen = { logins: [], messages: [] };
  const smtp = new SMTPServer({
    disabledCommands: startTls ? [] : ['STARTTLS'],
    allowInsecureAuth: true,
    // Its built-in certificate is the point here: no log line about it.
    logger: false,
    onAuth(auth, session, callback) {
      seen.logins.push({ user: auth.username ?? '', password: auth.password ?? '', secure: session.secure });
      callback(null, { user: auth.username });
    },
    onData(stream, session, callback) {
      stream.resume();
      stream.on('end', () => {
        seen.messages.push({ to: session.envelope.rcptTo.map((r) => r.address), secure: session.secure });
        callback();
      });
    },
  });
  smtp.on('error', () => undefined);
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  return {
    url: `smtp://lsp:rahasia@127.0.0.1:${(smtp.server.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise<void>((resolve) => smtp.close(() => resolve())),
  };
}

let ctx: TestContext;
let plain: Server;
let selfSigned: Server;
let company: string;

beforeAll(async () => {
  [plain, selfSigned] = await Promise.all([startServer(false), startServer(true)]);
  ctx = await createTestContext({}, { now: new Date('2026-03-02T01:00:00Z') });
  company = await ctx.make.company('PT LSP Aman');
});
afterAll(async () => {
  await ctx.close();
  await Promise.all([plain.close(), selfSigned.close()]);
});

let seq = 0;
/** Queues one message and tries it through `server` with SMTP_INSECURE `insecure`; answers its row. */
async function sendThrough(server: Server, insecure: boolean) {
  seq++;
  const recipient = `klien${seq}@aman.test`;
  await ctx.database.db.transaction((tx) =>
    queueMail(tx, ctx.clock, {
      companyId: company,
      recipient,
      subject: 'Pengingat',
      text: 'Yth. klien',
      dedupe: { record: `r${seq}`, kind: 'audit-reminder', due: '2026-04-01', step: '30' },
    }),
  );
  const [queued] = await ctx.database.db.select().from(mailOutbox).where(eq(mailOutbox.recipient, recipient));
  const config = loadConfig({ SMTP_URL: server.url, SMTP_INSECURE: insecure ? 'true' : 'false' });
  const mailer = createMailer(config)!;
  try {
    const result = await sendDueMail(ctx.database.db, ctx.clock, mailer, { ids: [queued!.id] });
    const [row] = await ctx.database.db.select().from(mailOutbox).where(eq(mailOutbox.id, queued!.id));
    return { result, row: row!, recipient };
  } finally {
    mailer.close();
  }
}

describe('SMTP_INSECURE', () => {
  it('is off unless set; SMTP_URL may not weaken TLS in its query', () => {
    expect(loadConfig({}).smtpInsecure).toBe(false);
    expect(loadConfig({ SMTP_INSECURE: 'true' }).smtpInsecure).toBe(true);
    for (const query of [
      'ignoreTLS=true',
      'requireTLS=false',
      'tls.rejectUnauthorized=false',
      'secure=false',
    ])
      expect(() => loadConfig({ SMTP_URL: `smtp://u:p@smtp.example.com:587?${query}` })).toThrow(
        /SMTP_URL may not set .*SMTP_INSECURE=true/,
      );
    expect(loadConfig({ SMTP_URL: 'smtp://u:p@smtp.example.com:587?name=lsp' }).smtpUrl).toBe(
      'smtp://u:p@smtp.example.com:587?name=lsp',
    );
  });
});

describe('smtp:// requires STARTTLS with a valid certificate', () => {
  it('a server that offers no STARTTLS gets neither the password nor the message; it stays queued saying why', async () => {
    const { result, row, recipient } = await sendThrough(plain, false);
    expect(result).toMatchObject({ tried: 1, sent: 0, retrying: 1 });
    expect(row).toMatchObject({ state: 'queued', attempts: 1, sent_at: null });
    expect(row.last_error).toMatch(/^Gagal mengirim email: server SMTP tidak menawarkan STARTTLS/);
    expect(plain.seen.logins).toEqual([]);
    expect(plain.seen.messages.filter((m) => m.to.includes(recipient))).toEqual([]);
  });

  it('a certificate that is not valid (self-signed) is refused before the login', async () => {
    const { result, row, recipient } = await sendThrough(selfSigned, false);
    expect(result).toMatchObject({ tried: 1, sent: 0, retrying: 1 });
    expect(row.state).toBe('queued');
    expect(row.last_error).toMatch(/^Gagal mengirim email: .*certificate/i);
    expect(selfSigned.seen.logins).toEqual([]);
    expect(selfSigned.seen.messages.filter((m) => m.to.includes(recipient))).toEqual([]);
  });
});

describe('SMTP_INSECURE=true', () => {
  it('sends in plain text to a server without STARTTLS', async () => {
    const { result, row, recipient } = await sendThrough(plain, true);
    expect(result).toMatchObject({ tried: 1, sent: 1 });
    expect(row).toMatchObject({ state: 'sent', last_error: null });
    expect(plain.seen.logins).toEqual([{ user: 'lsp', password: 'rahasia', secure: false }]);
    expect(plain.seen.messages.filter((m) => m.to.includes(recipient))).toEqual([
      { to: [recipient], secure: false },
    ]);
  });

  it('still uses STARTTLS when offered, taking any certificate', async () => {
    const { result, recipient } = await sendThrough(selfSigned, true);
    expect(result).toMatchObject({ tried: 1, sent: 1 });
    expect(selfSigned.seen.logins).toEqual([{ user: 'lsp', password: 'rahasia', secure: true }]);
    expect(selfSigned.seen.messages.filter((m) => m.to.includes(recipient))).toEqual([
      { to: [recipient], secure: true },
    ]);
  });
});
