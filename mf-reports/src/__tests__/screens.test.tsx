import { configure, screen } from '@testing-library/react';
import { ALL, routesOf } from '@sertifikasi/shared-contracts';
import { authStore } from '@sertifikasi/shared-auth';
import { screens } from '../routes';
import { fakeApi, listOf, renderInApp } from '@sertifikasi/shared-ui/test';

// findBy*/waitFor wait up to 5 s instead of 1 s: MUI in jsdom on a busy 2-core machine is slow, and
// a screen that answers later than that is still right (speed is measured in bench/, not here).
configure({ asyncUtilTimeout: 5000 });

jest.mock('apexcharts/line', () => ({}));
jest.mock('react-apexcharts/core', () => ({ __esModule: true, default: () => null }));

// The screens load their code lazily. Load it once before the tests, so that a heading's wait is not
// spent on it: on a busy machine that alone can take longer than 5 s.
beforeAll(
  () =>
    Promise.all([
      import('../features/dashboard/DashboardScreen'),
      import('../features/reports/screens'),
      import('../features/iaf-certsearch/IafCertsearchScreen'),
    ]),
  60_000,
);

/** What each screen shows first: its heading (the dashboard: its first section's). */
const HEADINGS: Record<keyof typeof screens, string> = {
  '/statistik': 'Status Sertifikasi Perusahaan',
  '/report-company-certificate': 'Laporan Sertifikasi Perusahaan',
  '/report-company-certificate-scheme': 'Laporan Skema Sertifikasi Perusahaan',
  '/report-training-certificate': 'Laporan Sertifikasi Pelatihan',
  '/iaf-certsearch': 'IAF CertSearch',
};

describe('mf-reports screens', () => {
  it('has a screen for every path the route registry gives this module', () => {
    expect(Object.keys(screens).sort()).toEqual(
      routesOf('mf_reports')
        .map((r) => r.path)
        .sort(),
    );
  });

  it.each(Object.entries(HEADINGS))('%s shows %s', async (path, heading) => {
    authStore.setState({ token: 'token', company_ids: ALL, companies: [], company_id: ALL });
    fakeApi({
      'GET /api/report-company-certification/ALL': { body: listOf([]) },
      'GET /api/report-company-certification-scheme/ALL': { body: listOf([]) },
      'GET /api/report-training-certification/ALL': { body: listOf([]) },
    });
    const Screen = screens[path as keyof typeof screens];
    renderInApp(<Screen />);
    expect(await screen.findByRole('heading', { name: heading })).toBeInTheDocument();
  });
});
