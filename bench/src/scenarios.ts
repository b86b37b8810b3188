/**
 * Named load scenarios on the large demo data set (large-bench.ts). Each is a list of requests that
 * every connection cycles through; a scenario is one entry here, among them the public checks and
 * the dashboard (docs/rules.md#calls fixes their paths).
 */
import type { LoadRequest } from './load';

/** What the scenarios draw their ids, numbers and terms from (read from the database at start). */
export interface Sample {
  companies: { id: string; name: string }[];
  /** Clients spread over the companies: [company_id, id]. */
  clients: { id: string; company_id: string }[];
  /** Per company, a client, a certification type and an accreditation body it owns (for creates). */
  schemeTargets: {
    company_id: string;
    certificate_id: string;
    certification_id: string;
    accredited_id: string;
  }[];
  /** Scheme numbers the public can check (any status but DRAFT). */
  certNumbers: string[];
  trainingNumbers: string[];
  /** "Today" in the deployment's time zone. */
  today: string;
}

export interface ScenarioInput {
  sample: Sample;
  /** Authorization header of the signed-in administrator (scope ALL). */
  auth: Record<string, string>;
  /** Unique per run, so numbers created by one run never collide with an earlier run's. */
  runId: string;
}

export interface Scenario {
  name: string;
  /** The issue whose goal it measures (absent: the goal is in bench/README.md beside the figures). */
  issue?: number;
  /** The endpoint as the table shows it. */
  endpoint: string;
  /** Connections, when not BENCH_CONNECTIONS. */
  connections?: number;
  /** A list search: print how many rows each request finds (its answer's `total`) before loading. */
  countMatches?: boolean;
  requests(input: ScenarioInput): LoadRequest[];
}

/** Client list searches a user might type, from common to rare (names, regions, numbers). */
export const CLIENT_SEARCHES = [
  'jaya',
  'konstruksi',
  'jawa timur',
  'medika',
  'tbk',
  'sinar abadi',
  'msn-kl-0012',
];
/** Training list searches: people, trainings, places, numbers. */
export const TRAINING_SEARCHES = [
  'budi',
  'auditor internal',
  'siregar',
  'zoom',
  '9001',
  'msn/plt/2025',
  'ahli k3',
];

const get = (path: string, auth: Record<string, string>): LoadRequest => ({
  method: 'GET',
  path,
  headers: auth,
});
const q = encodeURIComponent;

export const SCENARIOS: Scenario[] = [
  // Works today: the harness's own check.
  {
    name: 'profile',
    issue: 9,
    endpoint: 'GET /api/profile',
    requests: ({ auth }) => [get('/api/profile', auth)],
  },
  {
    name: 'company-list',
    issue: 9,
    endpoint: 'GET /api/company?paginate=20',
    requests: ({ auth }) => [get('/api/company?paginate=20', auth)],
  },
  // The certification module.
  {
    name: 'client-search',
    issue: 10,
    endpoint: 'GET /api/company-certificate?search&company_id=ALL',
    countMatches: true,
    requests: ({ auth }) =>
      CLIENT_SEARCHES.map((term) => get(`/api/company-certificate?search=${q(term)}&company_id=ALL`, auth)),
  },
  {
    name: 'client-list',
    issue: 10,
    endpoint: 'GET /api/company-certificate?company_id=ALL (no search)',
    requests: ({ auth }) => [get('/api/company-certificate?company_id=ALL', auth)],
  },
  {
    name: 'training-search',
    issue: 10,
    endpoint: 'GET /api/training-certificate?search&company_id=ALL',
    countMatches: true,
    requests: ({ auth }) =>
      TRAINING_SEARCHES.map((term) =>
        get(`/api/training-certificate?search=${q(term)}&company_id=ALL`, auth),
      ),
  },
  {
    name: 'client-detail',
    issue: 10,
    endpoint: 'GET /api/company-certificate/{company_id}/{id}',
    requests: ({ auth, sample }) =>
      sample.clients.map((c) => get(`/api/company-certificate/${c.company_id}/${c.id}`, auth)),
  },
  {
    name: 'scheme-create',
    issue: 10,
    endpoint: 'POST /api/company-certificate-scheme',
    connections: 4,
    requests: ({ auth, sample, runId }) =>
      sample.schemeTargets.map((t) => ({
        method: 'POST',
        path: '/api/company-certificate-scheme',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({
          ...t,
          // {{n}}: a new number for every request (load.ts).
          cert_number: `BENCH/${runId}/{{n}}`,
          status: 'ACTIVE',
          issue_date: sample.today,
          valid_for: 3,
          valid_for_type: 'YEAR',
          is_accredited: 'true',
        }),
      })),
  },
  // The public checks, a mix of known, unknown and repeated numbers, 64 connections.
  {
    name: 'check-certificate-company',
    issue: 11,
    endpoint: 'GET /api/check-certificate-company/{number}',
    connections: 64,
    requests: ({ sample }) => {
      // Interleaved, so every connection meets all three kinds early (a connection may send only a
      // few hundred requests in a run): per 9 requests, 5 known numbers, 2 unknown ones (one with an
      // encoded `+` and `/`), 2 repeats of the 10 most asked.
      const known = sample.certNumbers.slice(0, 200).map((n) => `/api/check-certificate-company/${q(n)}`);
      const popular = known.slice(0, 10);
      const paths: string[] = [];
      for (let i = 0; i < 50; i++) {
        paths.push(
          ...known.slice(i * 4, i * 4 + 4).slice(0, 3),
          `/api/check-certificate-company/TIDAK-ADA-${i}`,
        );
        paths.push(...known.slice(i * 4 + 3, i * 4 + 4), popular[i % 10]!);
        paths.push(`/api/check-certificate-company/tidak%2Bada%2F${i}`, popular[(i * 3) % 10]!);
        paths.push(...known.slice(150 + (i % 50), 151 + (i % 50)));
      }
      return paths.map((path) => ({ method: 'GET', path }));
    },
  },
  {
    name: 'check-certificate-training',
    issue: 11,
    endpoint: 'GET /api/check-certificate-training/{number}',
    connections: 64,
    requests: ({ sample }) =>
      sample.trainingNumbers.slice(0, 200).map((n) => ({
        method: 'GET',
        path: `/api/check-certificate-training/${q(n.replaceAll('/', '+')).replaceAll('%2B', '+')}`,
      })),
  },
  // The dashboard and charts over every company in scope.
  {
    name: 'dashboard-total',
    issue: 12,
    endpoint: 'GET /api/dashboard-total/ALL',
    requests: ({ auth }) => [get('/api/dashboard-total/ALL', auth)],
  },
  {
    name: 'chart-company',
    issue: 12,
    endpoint: 'GET /api/grafic-certification-company/ALL?date_type=6m&chart=MONTH',
    requests: ({ auth }) => [get('/api/grafic-certification-company/ALL?date_type=6m&chart=MONTH', auth)],
  },
  {
    name: 'chart-training',
    issue: 12,
    endpoint: 'GET /api/grafic-certification-training/ALL?date_type=1m&chart=DAY',
    requests: ({ auth }) => [get('/api/grafic-certification-training/ALL?date_type=1m&chart=DAY', auth)],
  },
  {
    name: 'dashboard-total-company',
    issue: 12,
    endpoint: 'GET /api/dashboard-total/{company_id}',
    requests: ({ auth, sample }) => sample.companies.map((c) => get(`/api/dashboard-total/${c.id}`, auth)),
  },
  {
    name: 'chart-company-default',
    issue: 12,
    endpoint: 'GET /api/grafic-certification-company/{company_id} (1w, DAY: the defaults)',
    requests: ({ auth, sample }) =>
      sample.companies.map((c) => get(`/api/grafic-certification-company/${c.id}`, auth)),
  },
  {
    name: 'chart-company-years',
    issue: 12,
    endpoint: 'GET /api/grafic-certification-company/ALL?date_type=custom (10 years, YEAR, 2 statuses)',
    requests: ({ auth, sample }) => [
      get(
        `/api/grafic-certification-company/ALL?date_type=custom&start_date=${Number(sample.today.slice(0, 4)) - 9}-01-01` +
          `&end_date=${sample.today}&chart=YEAR&status=ACTIVE,NOTACTIVE`,
        auth,
      ),
    ],
  },
  // The certification cycle: the schedule's first page and the dashboard card, read from the stored
  // items due (goal: at least 0.05 of the anchor, p99 at most 200 ms; bench/README.md).
  {
    name: 'audit-schedule-page',
    endpoint: 'GET /api/audit-schedule/ALL?window=all&paginate=20',
    requests: ({ auth }) => [get('/api/audit-schedule/ALL?window=all&paginate=20', auth)],
  },
  {
    name: 'audit-schedule-late',
    endpoint: 'GET /api/audit-schedule/{company_id}?window=late',
    requests: ({ auth, sample }) =>
      sample.companies.map((c) => get(`/api/audit-schedule/${c.id}?window=late`, auth)),
  },
  // Planned audits (a PLANNED one for every tenth scheme over the next 12 months, a done one for
  // another tenth over the past 12, about four a month per auditor: planned-audit-set.ts): the
  // 'Rencana Audit' list's first page per company, and a month of 'Kalender Auditor' (this month:
  // every active auditor of the company and the audits they are on in it).
  {
    name: 'planned-audit-list',
    endpoint: 'GET /api/planned-audit?company_id={company_id}&paginate=20',
    requests: ({ auth, sample }) =>
      sample.companies.map((c) => get(`/api/planned-audit?company_id=${c.id}&paginate=20`, auth)),
  },
  {
    name: 'auditor-calendar-month',
    endpoint: 'GET /api/auditor-calendar?company_id={company_id}&month={this month}&paginate=20',
    requests: ({ auth, sample }) =>
      sample.companies.map((c) =>
        get(`/api/auditor-calendar?company_id=${c.id}&month=${sample.today.slice(0, 7)}&paginate=20`, auth),
      ),
  },
  {
    name: 'audit-due-summary',
    endpoint: 'GET /api/audit-schedule/ALL/summary',
    requests: ({ auth }) => [get('/api/audit-schedule/ALL/summary', auth)],
  },
  {
    name: 'report-scheme-page',
    issue: 12,
    endpoint: 'GET /api/report-company-certification-scheme/ALL?status=ACTIVE&paginate=20',
    requests: ({ auth }) => [
      get('/api/report-company-certification-scheme/ALL?status=ACTIVE&paginate=20', auth),
    ],
  },
];
