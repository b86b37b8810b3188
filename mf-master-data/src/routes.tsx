import type { ComponentType } from 'react';
import type { PathsOf } from '@sertifikasi/shared-contracts';
import { lazyScreen, ResourceScreen } from '@sertifikasi/shared-ui';
import { companyResource } from './features/companies/companies.resource';
import { userResource } from './features/users/users.resource';

/**
 * What this module exposes to the shell: one screen per route path the registry gives it.
 *
 * '/company' and '/user' are in this file's chunk; the other screens load when first shown. They use
 * MUI parts the shell does not share (MenuItem, Checkbox, a few icons), whose copies here bring a
 * second copy of MUI's styling code (about 30 KB sent): loaded with this file, they made a direct hit
 * on '/company' fetch them too (bench/README.md, 'What a browser downloads').
 */
export const screens: Record<PathsOf<'mf_master_data'>, ComponentType> = {
  '/user': () => <ResourceScreen config={userResource} />,
  '/company': () => <ResourceScreen config={companyResource} />,
  '/roles': lazyScreen(() =>
    import('./features/roles/roles.resource').then((m) => ({
      default: () => <ResourceScreen config={m.roleResource} />,
    })),
  ),
  '/webhook': lazyScreen(() =>
    import('./features/webhooks/WebhookScreen').then((m) => ({ default: m.WebhookScreen })),
  ),
  '/notification-log': lazyScreen(() =>
    import('./features/notification-log/NotificationLogScreen').then((m) => ({
      default: m.NotificationLogScreen,
    })),
  ),
  '/auditor': lazyScreen(() =>
    import('./features/auditors/auditors.resource').then((m) => ({
      default: () => <ResourceScreen config={m.auditorResource} />,
    })),
  ),
};
