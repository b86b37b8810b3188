import type { ComponentType } from 'react';
import type { PathsOf } from '@sertifikasi/shared-contracts/public';
import { CompanyCheckPage } from './features/company/CompanyCheckPage';
import { TrainingCheckPage } from './features/training/TrainingCheckPage';

/** What this module exposes to the shell: one screen per route path the registry gives it. */
export const screens: Record<PathsOf<'mf_public_check'>, ComponentType> = {
  '/check-certification-company': CompanyCheckPage,
  '/check-certification-training': TrainingCheckPage,
};
