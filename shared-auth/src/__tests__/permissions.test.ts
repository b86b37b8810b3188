import { act, renderHook } from '@testing-library/react';
import { authStore, can, canAny, useCan, useCanAny } from '../index';
import { resetSession } from './session';

beforeEach(resetSession);

describe('can / canAny', () => {
  const roles = ['statistik', 'user', 'user:edit'];

  it('can is true only for a key the list holds', () => {
    expect(can(roles, 'user')).toBe(true);
    expect(can(roles, 'user:edit')).toBe(true);
    expect(can(roles, 'user:delete')).toBe(false);
    expect(can(roles, 'company')).toBe(false);
    expect(can([], 'statistik')).toBe(false);
  });

  it('canAny is true when the list holds at least one of the keys', () => {
    expect(canAny(roles, ['company', 'user:edit'])).toBe(true);
    expect(canAny(roles, ['user:create', 'user:delete'])).toBe(false);
    expect(canAny(roles, [])).toBe(false);
  });
});

describe('useCan / useCanAny', () => {
  it('read the permission keys of the store and follow their changes', () => {
    const one = renderHook(() => useCan('company'));
    const any = renderHook(() => useCanAny(['company:edit', 'company:delete']));
    expect(one.result.current).toBe(false);
    expect(any.result.current).toBe(false);

    act(() => authStore.setState({ roles: ['statistik', 'company', 'company:delete'] }));
    expect(one.result.current).toBe(true);
    expect(any.result.current).toBe(true);

    act(() => authStore.setState({ roles: ['statistik'] }));
    expect(one.result.current).toBe(false);
    expect(any.result.current).toBe(false);
  });

  it('a signed-out user holds only the default statistik key', () => {
    expect(renderHook(() => useCan('statistik')).result.current).toBe(true);
    expect(renderHook(() => useCan('user')).result.current).toBe(false);
  });
});
