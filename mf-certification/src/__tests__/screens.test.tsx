import { render, screen } from '@testing-library/react';
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

  it.each(routesOf('mf_certification'))('$path shows its title', ({ path, title }) => {
    const Screen = screens[path as keyof typeof screens];
    render(<Screen />);
    expect(screen.getByRole('heading', { name: title })).toBeInTheDocument();
  });
});
