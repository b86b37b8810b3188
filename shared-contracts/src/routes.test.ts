import { REMOTES, routeLink, routeOf, ROUTES, routesOf } from './routes';
import { isPermissionKey } from './permissions';

describe('route registry', () => {
  it('names every remote that owns a route, once, with its folder', () => {
    const owners = new Set(ROUTES.flatMap((r) => ('remote' in r ? [r.remote] : [])));
    expect(REMOTES.map((r) => r.name).sort()).toEqual([...owners].sort());
    for (const r of REMOTES) expect(r.folder).toBe(r.name.replace(/_/g, '-'));
  });

  it('has unique paths and only known permission keys', () => {
    expect(new Set(ROUTES.map((r) => r.path)).size).toBe(ROUTES.length);
    for (const r of ROUTES) if ('permission' in r) expect(isPermissionKey(r.permission)).toBe(true);
  });

  it('gives each remote its paths', () => {
    expect(routesOf('mf_master_data').map((r) => r.path)).toEqual([
      '/roles',
      '/user',
      '/company',
      '/webhook',
      '/notification-log',
      '/auditor',
    ]);
    expect(routeOf('/company-certificate/:id').title).toBe('Detail Sertifikasi Perusahaan');
  });

  it('fills a route link with encoded parameters', () => {
    expect(routeLink('/company-certificate/:id', { id: 'a/b c' })).toBe('/company-certificate/a%2Fb%20c');
    expect(routeLink('/user', {})).toBe('/user');
  });
});
