import type { ComponentType } from 'react';
import type { PathsOf } from '@sertifikasi/shared-contracts';
import { Placeholder } from './Placeholder';

/** What this module exposes to the shell: one screen per route path the registry gives it. */
export const screens: Record<PathsOf<'mf_public_check'>, ComponentType> = {
  '/check-certification-company': () => <Placeholder path="/check-certification-company" />,
  '/check-certification-training': () => <Placeholder path="/check-certification-training" />,
};
