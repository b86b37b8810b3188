import type { ComponentType } from 'react';
import type { PathsOf } from '@sertifikasi/shared-contracts';
import { DashboardScreen } from './features/dashboard/DashboardScreen';
import { companyReport } from './features/reports/company.report';
import { ReportScreen } from './features/reports/ReportScreen';
import { schemeReport } from './features/reports/scheme.report';
import { trainingReport } from './features/reports/training.report';

/** What this module exposes to the shell: one screen per route path the registry gives it. */
export const screens: Record<PathsOf<'mf_reports'>, ComponentType> = {
  '/statistik': DashboardScreen,
  '/report-company-certificate': () => <ReportScreen config={companyReport} />,
  '/report-company-certificate-scheme': () => <ReportScreen config={schemeReport} />,
  '/report-training-certificate': () => <ReportScreen config={trainingReport} />,
};
