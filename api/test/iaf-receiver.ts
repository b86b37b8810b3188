/**
 * A stand-in for IAF CertSearch's bulk upload on a loopback port, following its documented request
 * (POST `/api/client/v1/cb/bulk-upload-cert`, the key in `x-http-authorization`, the body
 * `{certifications: [...]}`): it keeps every call and answers as the test says (accept, refuse
 * some records, fail).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface IafCall {
  path: string;
  key: string | undefined;
  certifications: Record<string, unknown>[];
  at: number;
}

export interface IafAnswer {
  status: number;
  body?: unknown;
}

export interface IafReceiver {
  url: string;
  calls: IafCall[];
  /** How the next calls are answered (default: 200 `{success: true}`). */
  answer: (call: IafCall, n: number) => IafAnswer;
  close(): Promise<void>;
}

export async function startIafReceiver(): Promise<IafReceiver> {
  const receiver: IafReceiver = {
    url: '',
    calls: [],
    answer: () => ({ status: 200, body: { success: true } }),
    close: async () => undefined,
  };
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      const body = JSON.parse(raw || '{}') as { certifications?: Record<string, unknown>[] };
      const call: IafCall = {
        path: req.url ?? '',
        key: req.headers['x-http-authorization'] as string | undefined,
        certifications: body.certifications ?? [],
        at: Date.now(),
      };
      receiver.calls.push(call);
      const { status, body: answer } = receiver.answer(call, receiver.calls.length);
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(answer ?? {}));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  receiver.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return receiver;
}
