import { lazy, type ReactNode, Suspense } from 'react';
import { createBrowserRouter, Navigate, RouterProvider, type RouteObject } from 'react-router-dom';
import { AppThemeProvider, ToastHost } from '@sertifikasi/shared-ui/core';
import { Guard } from './guard';
import { LoginPage } from './pages/LoginPage';
import { NotFoundPage } from './pages/NotFoundPage';
import { PageLoading } from './components/PageLoading';
import { RemoteScreen } from './components/RemoteScreen';
import { LANDING, ROUTES, type RouteDef } from './routes';

// The login page loads only what it shows (the 400 KB gz budget): the layout (header, menu, company
// selector) and the profile page, with shared-ui's forms and tables, arrive after sign-in.
const MainLayout = lazy(() => import('./layouts/MainLayout').then((m) => ({ default: m.MainLayout })));
const ProfilePage = lazy(() => import('./pages/ProfilePage').then((m) => ({ default: m.ProfilePage })));

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
  // Two boundaries: a page still loading keeps the layout on screen.
  const content = <Suspense fallback={<PageLoading />}>{page(route)}</Suspense>;
  return (
    <Guard route={route}>
      <Suspense fallback={<PageLoading />}>
        {route.bare ? content : <MainLayout title={route.title}>{content}</MainLayout>}
      </Suspense>
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
