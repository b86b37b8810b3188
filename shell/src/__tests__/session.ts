/** The signed-in user the shell's tests use, and the user-info answer for a set of roles. */
export const sessionUser = {
  id: '00000000-0000-4000-8000-000000000001',
  name: 'Siti Operator',
  username: 'siti',
  roles_id: '00000000-0000-4000-8000-0000000000aa',
  roles: { id: '00000000-0000-4000-8000-0000000000aa', name: 'Operator' },
  company_ids: ['00000000-0000-4000-8000-0000000000c1'],
  is_active: 'true',
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
};

export const userInfo = (roles: string[]) => ({
  user: sessionUser,
  roles,
  company_ids: sessionUser.company_ids,
  companies: [{ id: '00000000-0000-4000-8000-0000000000c1', name: 'PT Satu' }],
});
