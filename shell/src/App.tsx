import type { ReactNode } from 'react';
import { createBrowserRouter, Navigate, RouterProvider, type RouteObject } from 'react-router-dom';
import { AppThemeProvider, ToastHost } from '@sertifikasi/shared-ui';
import { Guard } from './guard';
import { MainLayout } from './layouts/MainLayout';
import { LoginPage } from './pages/LoginPage';
import { NotFoundPage } from './pages/NotFoundPage';
import { ProfilePage } from './pages/ProfilePage';
import { RemoteScreen } from './components/RemoteScreen';
import { LANDING, ROUTES, type RouteDef } from './routes';

function page(route: RouteDef): ReactNode {
  if (route.remote) return <RemoteScreen remote={route.remote} path={route.path} />;
  switch (route.path) {
    case '/login':
      return <LoginPage />;
    case '/profile':
      return <ProfilePage />;
    default:
      return <NotFoundPage />;
  }
}

function element(route: RouteDef): ReactNode {
  const content = page(route);
  return (
    <Guard route={route}>
      {route.bare ? content : <MainLayout title={route.title}>{content}</MainLayout>}
    </Guard>
  );
}

const notFound = ROUTES.find((r) => r.path === '/notfound')!;

/** Every route of the portal; unknown paths show Not Found (signed in only). */
export const routeObjects: RouteObject[] = [
  { path: '/', element: <Navigate to={LANDING} replace /> },
  ...ROUTES.map((route) => ({ path: route.path, element: element(route) })),
  { path: '*', element: element(notFound) },
];

export function App({
  router = createBrowserRouter(routeObjects),
}: {
  router?: ReturnType<typeof createBrowserRouter>;
}) {
  return (
    <AppThemeProvider>
      <RouterProvider router={router} />
      <ToastHost />
    </AppThemeProvider>
  );
}
