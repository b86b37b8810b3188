import { DEFAULT_ROLE_KEYS } from '@sertifikasi/shared-contracts';
import type { SessionUser, User, UserInfo } from '@sertifikasi/shared-contracts';
import { authStore } from '../index';

export const ADMIN: SessionUser = {
  id: '6c1f3a1e-8a8e-4a63-9d0a-2f2f5f0f0a01',
  name: 'Administrator',
  username: 'admin',
  email: null,
  roles_id: '6c1f3a1e-8a8e-4a63-9d0a-2f2f5f0f0a02',
  roles: { id: '6c1f3a1e-8a8e-4a63-9d0a-2f2f5f0f0a02', name: 'Administrator' },
  company_ids: 'ALL',
  is_active: 'true',
};

export const PROFILE: User = {
  ...ADMIN,
  created_at: '2025-01-01T00:00:00.000+07:00',
  updated_at: '2025-01-02T00:00:00.000+07:00',
};

export const COMPANY_A = { id: 'aaaaaaaa-0000-4000-8000-000000000001', name: 'PT Alfa' };
export const COMPANY_B = { id: 'bbbbbbbb-0000-4000-8000-000000000002', name: 'PT Beta' };

export const userInfo = (over: Partial<UserInfo> = {}): UserInfo => ({
  user: ADMIN,
  roles: ['statistik', 'user', 'user:edit'],
  company_ids: 'ALL',
  companies: [COMPANY_A, COMPANY_B],
  ...over,
});

const initial = authStore.getState();

/** A signed-out page with empty local storage. */
export function resetSession(): void {
  localStorage.clear();
  authStore.setState({ ...initial, token: null, company_id: null, roles: [...DEFAULT_ROLE_KEYS] }, true);
}

/** A signed-in page, as after a login (token in state and storage). */
export function signIn(token = 'token-1'): void {
  localStorage.setItem('sertifikasi.token', token);
  authStore.setState({ token, user: ADMIN, status: 'success' });
}
