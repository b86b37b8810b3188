import { type ReactNode, useEffect } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { can, notifyApiError, useAuth } from '@sertifikasi/shared-auth';
import { PageLoading } from './components/PageLoading';
import type { RouteDef } from './routes';
import { t } from './i18n/id';

/** The page title: the route title followed by ' - Sistem Sertifikasi'. */
export function useTitle(title: string) {
  useEffect(() => {
    document.title = `${title}${t.titleSuffix}`;
  }, [title]);
}

/**
 * The navigation guard (docs/rules.md#screens): a route needing sign-in sends a signed-out user to
 * /login; a route with a permission sends a user whose keys lack it to /notfound; the mobile menu
 * closes after each navigation. The API refuses the same calls whatever the UI shows.
 */
export function Guard({
  route,
  children,
  pending = <PageLoading />,
}: {
  route: RouteDef;
  children: ReactNode;
  /** What shows while the user's permissions load (the layout with a progress bar). */
  pending?: ReactNode;
}) {
  const token = useAuth((s) => s.token);
  const roles = useAuth((s) => s.roles);
  // The caller's permissions and companies arrive with user-info (after sign-in, or on a reload).
  const loaded = useAuth((s) => s.company_ids !== null);
  const loadUserInfo = useAuth((s) => s.loadUserInfo);
  const closeMobileMenu = useAuth((s) => s.closeMobileMenu);
  const location = useLocation();
  useTitle(route.title);
  useEffect(() => closeMobileMenu(), [location.pathname, closeMobileMenu]);
  useEffect(() => {
    if (route.auth && token && !loaded) loadUserInfo().catch(notifyApiError);
  }, [route.auth, token, loaded, loadUserInfo]);

  if (!route.auth) return <>{children}</>;
  if (!token) return <Navigate to="/login" replace />;
  if (!loaded) return <>{pending}</>;
  if (route.permission && !can(roles, route.permission)) return <Navigate to="/notfound" replace />;
  return <>{children}</>;
}
