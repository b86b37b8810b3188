import { render, screen } from '@testing-library/react';
import { routesOf } from '@sertifikasi/shared-contracts';
import { screens } from '../routes';

describe('mf-reports screens', () => {
  it('has a screen for every path the route registry gives this module', () => {
    expect(Object.keys(screens).sort()).toEqual(
      routesOf('mf_reports')
        .map((r) => r.path)
        .sort(),
    );
  });

  it.each(routesOf('mf_reports'))('$path shows its title', ({ path, title }) => {
    const Screen = screens[path as keyof typeof screens];
    render(<Screen />);
    expect(screen.getByRole('heading', { name: title })).toBeInTheDocument();
  });
});
