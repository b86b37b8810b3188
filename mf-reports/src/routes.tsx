import type { ComponentType } from 'react';
import type { PathsOf } from '@sertifikasi/shared-contracts';
import { Placeholder } from './Placeholder';

/** What this module exposes to the shell: one screen per route path the registry gives it. */
export const screens: Record<PathsOf<'mf_reports'>, ComponentType> = {
  '/statistik': () => <Placeholder path="/statistik" />,
  '/report-company-certificate': () => <Placeholder path="/report-company-certificate" />,
  '/report-company-certificate-scheme': () => <Placeholder path="/report-company-certificate-scheme" />,
  '/report-training-certificate': () => <Placeholder path="/report-training-certificate" />,
};
