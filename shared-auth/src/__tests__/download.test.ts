import {
  downloadFile,
  filenameFromDisposition,
  notifyApiError,
  readApiError,
  saveBase64Png,
  setApiErrorNotifier,
} from '../index';
import { resetSession, signIn } from './session';

const realFetch = globalThis.fetch;
const encoder = new TextEncoder();

interface Saved {
  filename: string;
  blob: Blob;
}
let saved: Saved[] = [];
let requests: Request[] = [];

beforeEach(() => {
  resetSession();
  saved = [];
  requests = [];
  // What the browser would save: the blob behind the object URL and the link's download name.
  const blobs = new Map<string, Blob>();
  let n = 0;
  URL.createObjectURL = jest.fn((blob: Blob) => {
    const url = `blob:test/${++n}`;
    blobs.set(url, blob);
    return url;
  });
  URL.revokeObjectURL = jest.fn();
  jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push({ filename: this.download, blob: blobs.get(this.href)! });
  });
});
afterEach(() => {
  globalThis.fetch = realFetch;
  jest.restoreAllMocks();
});

/** Answers every call with `chunks` as the body, in that many pieces, and these headers. */
function serve(chunks: string[], headers: Record<string, string>, status = 200) {
  globalThis.fetch = jest.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(input, init);
    const signal = init?.signal ?? request.signal;
    if (signal?.aborted) throw signal.reason ?? new DOMException('aborted', 'AbortError');
    requests.push(request);
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
        controller.close();
      },
    });
    return new Response(body, { status, headers });
  }) as typeof fetch;
}

describe('filenameFromDisposition', () => {
  it.each([
    ['attachment; filename="export-sertifikasi-pelatihan.xlsx"', 'export-sertifikasi-pelatihan.xlsx'],
    ['attachment; filename=plain.pdf', 'plain.pdf'],
    // filename* (UTF-8) wins over the ASCII fallback, wherever it stands.
    [
      `attachment; filename*=UTF-8''CERT.%20NO.%20QMS_001%20PT%20Caf%C3%A9.pdf; filename="CERT. NO. QMS_001 PT Cafe.pdf"`,
      'CERT. NO. QMS_001 PT Café.pdf',
    ],
    [
      `attachment; filename="fallback.pdf"; filename*=utf-8'id'Laporan%20%E2%80%93%20Mei.xlsx`,
      'Laporan – Mei.xlsx',
    ],
    [`attachment; filename*=iso-8859-1''Caf%E9.pdf`, 'Café.pdf'],
    ['attachment; filename="a \\"quoted\\" name.pdf"', 'a "quoted" name.pdf'],
    // No folders in a saved name.
    ['attachment; filename="../../etc/passwd"', '.._.._etc_passwd'],
    [`attachment; filename*=UTF-8''broken%E2%28.pdf; filename="ok.pdf"`, 'ok.pdf'],
  ])('%s -> %s', (header, name) => {
    expect(filenameFromDisposition(header)).toBe(name);
  });

  it('is null when no name is given', () => {
    expect(filenameFromDisposition(null)).toBeNull();
    expect(filenameFromDisposition('inline')).toBeNull();
    expect(filenameFromDisposition('attachment; filename=""')).toBeNull();
  });
});

describe('downloadFile', () => {
  it('asks with the bearer token and the query, and saves the file under the name the answer gives', async () => {
    signIn('tok-download');
    serve(['PK', '\u0003\u0004rest'], {
      'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      'content-disposition': `attachment; filename*=UTF-8''export-skema-sertifikasi-perusahaan.xlsx`,
    });
    const result = await downloadFile('report-company-certification-scheme/ALL', {
      searchParams: { search: 'pt', status: 'ACTIVE,SUSPENDED', type: 'export' },
      filename: 'fallback.xlsx',
    });

    const url = new URL(requests[0]!.url);
    expect(url.pathname).toBe('/api/report-company-certification-scheme/ALL');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      search: 'pt',
      status: 'ACTIVE,SUSPENDED',
      type: 'export',
    });
    expect(requests[0]!.headers.get('authorization')).toBe('Bearer tok-download');
    expect(result).toEqual({ filename: 'export-skema-sertifikasi-perusahaan.xlsx', size: 8 });
    expect(saved).toHaveLength(1);
    expect(saved[0]!.filename).toBe('export-skema-sertifikasi-perusahaan.xlsx');
    expect(saved[0]!.blob.type).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(await saved[0]!.blob.text()).toBe('PK\u0003\u0004rest');
  });

  it('uses the given name when the answer names none', async () => {
    signIn();
    serve(['%PDF-1.7'], { 'content-type': 'application/pdf' });
    await downloadFile('download-certificate/s-1', { filename: 'CERT. NO. 1/2 PT A.pdf' });
    expect(saved[0]!.filename).toBe('CERT. NO. 1_2 PT A.pdf');
  });

  it('reports progress: bytes received and the total when the answer says it', async () => {
    signIn();
    serve(['aaaa', 'bbbb', 'cc'], {
      'content-length': '10',
      'content-disposition': 'attachment; filename=x.bin',
    });
    const progress: [number, number | undefined][] = [];
    await downloadFile('x', { onProgress: (received, total) => progress.push([received, total]) });
    expect(progress).toEqual([
      [0, 10],
      [4, 10],
      [8, 10],
      [10, 10],
    ]);
  });

  it('reports no total for a compressed answer (its length is not what arrives)', async () => {
    signIn();
    serve(['abc'], { 'content-length': '2', 'content-encoding': 'br' });
    const totals: (number | undefined)[] = [];
    await downloadFile('x', { onProgress: (_r, total) => totals.push(total) });
    expect(totals).toEqual([undefined, undefined]);
  });

  it('stops when cancelled: rejects with an AbortError (no toast) and saves nothing', async () => {
    signIn();
    serve(['aaaa', 'bbbb', 'cccc'], { 'content-length': '12' });
    const controller = new AbortController();
    const notify = jest.fn();
    const progress: number[] = [];
    const failed = await downloadFile('x', {
      signal: controller.signal,
      onProgress: (received) => {
        progress.push(received);
        if (received > 0) controller.abort();
      },
    }).catch((err: unknown) => err);
    expect((failed as Error).name).toBe('AbortError');
    expect(saved).toEqual([]);
    expect(progress).toEqual([0, 4]);
    setApiErrorNotifier(notify);
    notifyApiError(failed);
    expect(notify).not.toHaveBeenCalled();
  });

  it('rejects with the API error when the call fails, saving nothing', async () => {
    signIn();
    serve(
      ['{"code":"forbidden","message":"Anda tidak memiliki akses untuk tindakan ini"}'],
      {
        'content-type': 'application/json',
      },
      403,
    );
    const failed = await downloadFile('x').catch((err: unknown) => err);
    expect(await readApiError(failed)).toEqual({
      code: 'forbidden',
      message: 'Anda tidak memiliki akses untuk tindakan ini',
    });
    expect(saved).toEqual([]);
  });
});

describe('saveBase64Png', () => {
  const PNG = 'iVBORw0KGgo='; // the PNG signature

  it('saves the QR as qrcode-<name>.png, with or without the data: prefix', async () => {
    expect(saveBase64Png(`data:image/png;base64,${PNG}`, 'QMS/001/2026')).toBe('qrcode-QMS_001_2026.png');
    expect(saveBase64Png(PNG, 'TR-9')).toBe('qrcode-TR-9.png');
    expect(saved.map((s) => s.filename)).toEqual(['qrcode-QMS_001_2026.png', 'qrcode-TR-9.png']);
    expect(saved[0]!.blob.type).toBe('image/png');
    const bytes = new Uint8Array(await saved[0]!.blob.arrayBuffer());
    expect([...bytes]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  });
});
