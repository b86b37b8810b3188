import { routeOf, type RoutePath } from '@sertifikasi/shared-contracts';
import { t } from './i18n/id';

/** Stands in for a screen that is being built: the route's title and a short note (no MUI here). */
export function Placeholder({ path }: { path: RoutePath }) {
  return (
    <main style={{ padding: 24, fontFamily: 'system-ui, sans-serif' }}>
      <h1>{routeOf(path).title}</h1>
      <p>{t.placeholder}</p>
    </main>
  );
}
