import type { ComponentType } from 'react';
import type { PathsOf } from '@sertifikasi/shared-contracts';
import { lazyScreen } from '@sertifikasi/shared-ui';

/** What this module exposes to the shell: one screen per route path the registry gives it. */
export const screens: Record<PathsOf<'mf_reports'>, ComponentType> = {
  '/statistik': lazyScreen(() => import('./features/dashboard/DashboardScreen')),
  '/report-company-certificate': lazyScreen(() =>
    import('./features/reports/screens').then((m) => ({ default: m.CompanyReportScreen })),
  ),
  '/report-company-certificate-scheme': lazyScreen(() =>
    import('./features/reports/screens').then((m) => ({ default: m.SchemeReportScreen })),
  ),
  '/report-training-certificate': lazyScreen(() =>
    import('./features/reports/screens').then((m) => ({ default: m.TrainingReportScreen })),
  ),
  '/iaf-certsearch': lazyScreen(() => import('./features/iaf-certsearch/IafCertsearchScreen')),
};
