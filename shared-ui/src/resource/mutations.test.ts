import { nestFieldErrors } from './mutations';

describe('nestFieldErrors', () => {
  it('puts a list row’s message where that row’s input reads it', () => {
    expect(
      nestFieldErrors({ 'team[1].auditor_id': 'Bentrok jadwal', audit_days: 'Isi alasan', 'a.b': 'x' }),
    ).toEqual({
      team: [undefined, { auditor_id: 'Bentrok jadwal' }],
      audit_days: 'Isi alasan',
      a: { b: 'x' },
    });
  });

  it('keeps a list’s own message while no row has one; the rows’ win otherwise', () => {
    expect(nestFieldErrors({ team: 'Tepat satu Lead Auditor' })).toEqual({ team: 'Tepat satu Lead Auditor' });
    expect(nestFieldErrors({ team: 'Tepat satu Lead Auditor', 'team[0].auditor_id': 'Tidak aktif' })).toEqual(
      {
        team: [{ auditor_id: 'Tidak aktif' }],
      },
    );
  });
});
