import type { ComponentType } from 'react';
import type { PathsOf } from '@sertifikasi/shared-contracts';
import { ResourceScreen } from '@sertifikasi/shared-ui';
import { accreditedResource } from './features/accredited/accredited.resource';
import { certificationResource } from './features/certification/certification.resource';
import { clientCertificateResource } from './features/client-certificate/client-certificate.resource';
import { trainingCertificateResource } from './features/training-certificate/training-certificate.resource';
import { Placeholder } from './Placeholder';

/** What this module exposes to the shell: one screen per route path the registry gives it. */
export const screens: Record<PathsOf<'mf_certification'>, ComponentType> = {
  '/accredited': () => <ResourceScreen config={accreditedResource} />,
  '/certification': () => <ResourceScreen config={certificationResource} />,
  '/company-certificate': () => <ResourceScreen config={clientCertificateResource} />,
  '/company-certificate/:id': () => <Placeholder path="/company-certificate/:id" />,
  '/training-certificate': () => <ResourceScreen config={trainingCertificateResource} />,
  '/training-certificate/:id': () => <Placeholder path="/training-certificate/:id" />,
};
