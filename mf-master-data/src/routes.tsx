import type { ComponentType } from 'react';
import type { PathsOf } from '@sertifikasi/shared-contracts';
import { ResourceScreen } from '@sertifikasi/shared-ui';
import { companyResource } from './features/companies/companies.resource';
import { roleResource } from './features/roles/roles.resource';
import { userResource } from './features/users/users.resource';
import { NotificationLogScreen } from './features/notification-log/NotificationLogScreen';
import { WebhookScreen } from './features/webhooks/WebhookScreen';
import { auditorResource } from './features/auditors/auditors.resource';

/** What this module exposes to the shell: one screen per route path the registry gives it. */
export const screens: Record<PathsOf<'mf_master_data'>, ComponentType> = {
  '/user': () => <ResourceScreen config={userResource} />,
  '/roles': () => <ResourceScreen config={roleResource} />,
  '/company': () => <ResourceScreen config={companyResource} />,
  '/webhook': WebhookScreen,
  '/notification-log': NotificationLogScreen,
  '/auditor': () => <ResourceScreen config={auditorResource} />,
};
