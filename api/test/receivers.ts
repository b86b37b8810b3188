/**
 * The far ends the reminder tests send to, on loopback ports: an SMTP server (no TLS, no login) and
 * an HTTP receiver of webhooks.
 */
import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface Receiver {
  /** Its address: `smtp://127.0.0.1:<port>` or `http://127.0.0.1:<port>`. */
  url: string;
  close(): Promise<void>;
}

/** An SMTP server handing each message's envelope recipients and raw text to `onMessage`. */
export async function startSmtp(onMessage: (to: string[], raw: string) => void): Promise<Receiver> {
  const smtp = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        onMessage(
          session.envelope.rcptTo.map((r) => r.address),
          Buffer.concat(chunks).toString('utf8'),
        );
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  return {
    url: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => smtp.close(() => resolve())),
  };
}

/** An HTTP server handing each request's body and headers to `answer`, which gives the status to answer. */
export async function startReceiver(
  answer: (body: string, headers: IncomingHttpHeaders) => number,
): Promise<Receiver> {
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => res.writeHead(answer(body, req.headers)).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
