import type { ComponentType } from 'react';
import type { PathsOf } from '@sertifikasi/shared-contracts';
import { ResourceScreen } from '@sertifikasi/shared-ui';
import { accreditationBodyResource } from './features/accreditation-body/accreditation-body.resource';
import { certificationTypeResource } from './features/certification-type/certification-type.resource';
import { clientCertificateResource } from './features/client-certificate/client-certificate.resource';
import { trainingCertificateResource } from './features/training-certificate/training-certificate.resource';
import { ClientCertificateDetailPage } from './features/client-certificate/ClientCertificateDetailPage';
import { TrainingCertificateDetailPage } from './features/training-certificate/TrainingCertificateDetailPage';
import { AuditScheduleScreen } from './features/audit-schedule/AuditScheduleScreen';
import { PlannedAuditScreen } from './features/planned-audit/PlannedAuditScreen';
import { AuditorCalendarScreen } from './features/planned-audit/AuditorCalendarScreen';

/** What this module exposes to the shell: one screen per route path the registry gives it. */
export const screens: Record<PathsOf<'mf_certification'>, ComponentType> = {
  '/accredited': () => <ResourceScreen config={accreditationBodyResource} />,
  '/certification': () => <ResourceScreen config={certificationTypeResource} />,
  '/company-certificate': () => <ResourceScreen config={clientCertificateResource} />,
  '/company-certificate/:id': ClientCertificateDetailPage,
  '/training-certificate': () => <ResourceScreen config={trainingCertificateResource} />,
  '/training-certificate/:id': TrainingCertificateDetailPage,
  '/audit-schedule': AuditScheduleScreen,
  '/planned-audit': PlannedAuditScreen,
  '/auditor-calendar': AuditorCalendarScreen,
};
