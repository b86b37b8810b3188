import type { ComponentType } from 'react';
import type { PathsOf } from '@sertifikasi/shared-contracts';
import { Placeholder } from './Placeholder';

/** What this module exposes to the shell: one screen per route path the registry gives it. */
export const screens: Record<PathsOf<'mf_certification'>, ComponentType> = {
  '/accredited': () => <Placeholder path="/accredited" />,
  '/certification': () => <Placeholder path="/certification" />,
  '/company-certificate': () => <Placeholder path="/company-certificate" />,
  '/company-certificate/:id': () => <Placeholder path="/company-certificate/:id" />,
  '/training-certificate': () => <Placeholder path="/training-certificate" />,
  '/training-certificate/:id': () => <Placeholder path="/training-certificate/:id" />,
};
