import { routesOf } from '@sertifikasi/shared-contracts';
import { screens } from '../routes';

describe('mf-certification screens', () => {
  it('has a screen for every path the route registry gives this module', () => {
    expect(Object.keys(screens).sort()).toEqual(
      routesOf('mf_certification')
        .map((r) => r.path)
        .sort(),
    );
  });
});
