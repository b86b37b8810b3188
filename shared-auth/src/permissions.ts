import type { PermissionKey } from '@sertifikasi/shared-contracts/portal';
import { useAuth } from './store';

/** Whether a list of permission keys holds `key` (the guard, the menu and action buttons alike). */
export function can(roles: readonly string[], key: PermissionKey): boolean {
  return roles.includes(key);
}

/** Whether a list of permission keys holds at least one of `keys` (a menu group, an action column). */
export function canAny(roles: readonly string[], keys: readonly PermissionKey[]): boolean {
  return keys.some((key) => roles.includes(key));
}

/** Whether the signed-in user holds `key`; re-renders when their permissions change. */
export function useCan(key: PermissionKey): boolean {
  return useAuth((s) => can(s.roles, key));
}

/** Whether the signed-in user holds any of `keys`. */
export function useCanAny(keys: readonly PermissionKey[]): boolean {
  return useAuth((s) => canAny(s.roles, keys));
}
