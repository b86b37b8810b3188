import type { LoadResult } from './load';

export interface Row {
  target: string;
  endpoint: string;
  connections: number;
  /** With `cpuUs`: this process's CPU time per answer in microseconds, when measured (harness.ts). */
  result: LoadResult & { cpuUs?: number };
  /** Requests a second of the bare Fastify route, for the ratio. */
  bareRps: number;
  /**
   * Requests a second of the anchor route (bare Fastify + one pg primary-key lookup), for
   * a second ratio; the large benchmark sets it on every row.
   */
  anchorRps?: number;
}

const num = (n: number): string => (n >= 100 ? Math.round(n).toLocaleString('en-US') : n.toFixed(1));
/** autocannon's latency histogram has 1 ms resolution. */
const ms = (n: number): string => (n >= 1 ? String(Math.round(n)) : '<1');

function bad(r: LoadResult): string {
  const text = `${r.errors}/${r.non2xx}`;
  if (!r.non2xx) return text;
  const codes = Object.entries(r.statusCodes)
    .filter(([code]) => !code.startsWith('2'))
    .map(([code, n]) => `${code}x${n}`)
    .join(' ');
  return `${text} (${codes})`;
}

const ratioText = (ratio: number) => (ratio >= 0.01 ? ratio.toFixed(3) : ratio.toPrecision(2));

/** One row of cells; the ratios are requests/s over the bare route's (and the anchor's, when given). */
function cells(row: Row, withAnchor: boolean, withCpu: boolean): string[] {
  const { result: r } = row;
  const ratio = row.bareRps > 0 ? r.rps / row.bareRps : 0;
  const anchor = row.anchorRps ? ratioText(r.rps / row.anchorRps) : '-';
  return [
    row.target,
    row.endpoint,
    String(row.connections),
    num(r.rps),
    ms(r.p50),
    ms(r.p99),
    bad(r),
    row.bareRps > 0 ? ratioText(ratio) : '-',
    ...(withAnchor ? [anchor] : []),
    ...(withCpu ? [r.cpuUs ? String(Math.round(r.cpuUs)) : '-'] : []),
  ];
}

const HEAD = ['target', 'endpoint', 'conns', 'req/s', 'p50 ms', 'p99 ms', 'errors/non-2xx', 'vs bare'];
const RIGHT = new Set([2, 3, 4, 5, 7, 8, 9]);

/**
 * The rows as a text table; a 'vs anchor' column when any row has the anchor's rate, and 'cpu us'
 * (the server's CPU time per answer) when any row measured it.
 */
export function table(rows: Row[]): string {
  const withAnchor = rows.some((r) => r.anchorRps);
  const withCpu = rows.some((r) => r.result.cpuUs);
  const head = [...HEAD, ...(withAnchor ? ['vs anchor'] : []), ...(withCpu ? ['cpu us'] : [])];
  const body = rows.map((r) => cells(r, withAnchor, withCpu));
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((c) => c[i]!.length)));
  const line = (c: string[]) =>
    c.map((v, i) => (RIGHT.has(i) ? v.padStart(widths[i]!) : v.padEnd(widths[i]!))).join('  ');
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}
