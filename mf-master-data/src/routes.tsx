import type { ComponentType } from 'react';
import { ResourceScreen } from '@sertifikasi/shared-ui';
import { companyResource } from './features/companies/companies.resource';
import { roleResource } from './features/roles/roles.resource';
import { userResource } from './features/users/users.resource';

/** What this module exposes to the shell: one screen per route path it owns. */
export const screens: Record<string, ComponentType> = {
  '/user': () => <ResourceScreen config={userResource} />,
  '/roles': () => <ResourceScreen config={roleResource} />,
  '/company': () => <ResourceScreen config={companyResource} />,
};
