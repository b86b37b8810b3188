/**
 * What the bundle budget (bundle-budget.ts) records and prints: the JavaScript a page fetched, per
 * phase (`Recorder`), and the table of files, sizes as sent and decoded, and encodings.
 */
import type { Page, Response } from 'playwright-core';

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface Fetched {
  url: string;
  /** Body size once decoded. */
  raw: number;
  /** Body bytes on the wire (compressed when the server compressed it). */
  sent: number;
  /** Content-Encoding, or 'identity'. */
  encoding: string;
}

const isJavaScript = (response: Response): boolean =>
  response.request().resourceType() === 'script' ||
  /javascript|ecmascript/.test(response.headers()['content-type'] ?? '') ||
  /\.m?js(\?|$)/.test(new URL(response.url()).pathname);

/** The module folder a file is served from ('/modules/<folder>/...'), or 'shell'. */
const origin = (url: string): string => /^\/modules\/([^/]+)\//.exec(new URL(url).pathname)?.[1] ?? 'shell';

/** Records JavaScript responses (once per URL over the whole run) and every path fetched, per phase. */
export class Recorder {
  private seen = new Set<string>();
  private pending: Promise<void>[] = [];
  private lastActivity = Date.now();
  js: Fetched[] = [];
  paths: string[] = [];

  constructor(page: Page) {
    page.on('request', () => {
      this.lastActivity = Date.now();
    });
    page.on('response', (response) => {
      this.lastActivity = Date.now();
      this.paths.push(new URL(response.url()).pathname);
      if (!isJavaScript(response) || this.seen.has(response.url())) return;
      this.seen.add(response.url());
      this.pending.push(
        Promise.all([response.body(), response.request().sizes()]).then(
          ([body, sizes]) =>
            void this.js.push({
              url: response.url(),
              raw: body.length,
              sent: sizes.responseBodySize,
              encoding: response.headers()['content-encoding'] ?? 'identity',
            }),
          () => undefined, // a redirect or a response without a body
        ),
      );
    });
  }

  /**
   * Waits until the page has asked for nothing for `ms` (a client-side navigation has no load state
   * to wait for: lazy chunks arrive after the URL changes), then for the bodies of this phase, and
   * hands over what it fetched, starting a new phase.
   */
  async phase(ms = 1000): Promise<{ js: Fetched[]; paths: string[] }> {
    while (Date.now() - this.lastActivity < ms) await sleep(100);
    await Promise.all(this.pending);
    const result = { js: this.js, paths: this.paths };
    this.js = [];
    this.paths = [];
    this.pending = [];
    return result;
  }
}

export const kb = (bytes: number) => (bytes / 1024).toFixed(1);
export const sum = (files: Fetched[], key: 'raw' | 'sent') => files.reduce((n, f) => n + f[key], 0);
/** 'br 20, identity 1': how many files came in each encoding. */
function encodings(files: Fetched[]): string {
  const count = new Map<string, number>();
  for (const f of files) count.set(f.encoding, (count.get(f.encoding) ?? 0) + 1);
  return [...count].map(([encoding, n]) => `${encoding} ${n}`).join(', ');
}

export function listFiles(lines: Line[]): void {
  for (const { label, files } of lines) {
    if (label.startsWith('  ')) continue;
    process.stdout.write(`\n${label}\n`);
    for (const f of [...files].sort((a, b) => b.sent - a.sent)) {
      process.stdout.write(
        `  ${kb(f.sent).padStart(7)} KB sent  ${kb(f.raw).padStart(7)} KB  ${f.encoding.padEnd(8)}  ${new URL(f.url).pathname}\n`,
      );
    }
  }
}

export const verdict = (value: number, goal: number) => (value <= goal ? 'met' : 'OVER');

export interface Line {
  label: string;
  files: Fetched[];
}

export function printTable(lines: Line[]): void {
  const rows = [
    ['page / module', 'files', 'sent KB', 'decoded KB', 'encodings'],
    ...lines.map(({ label, files }) => [
      label,
      String(files.length),
      kb(sum(files, 'sent')),
      kb(sum(files, 'raw')),
      encodings(files),
    ]),
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const format = (r: string[]) =>
    r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  process.stdout.write(`\n${format(rows[0]!)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}\n`);
  for (const r of rows.slice(1)) process.stdout.write(`${format(r)}\n`);
}

/** Splits a phase's files by the folder they are served from (when more than one). */
export function byOrigin(files: Fetched[]): Line[] {
  const folders = [...new Set(files.map((f) => origin(f.url)))].sort();
  if (folders.length < 2) return [];
  return folders.map((folder) => ({
    label: `  of which ${folder}`,
    files: files.filter((f) => origin(f.url) === folder),
  }));
}
