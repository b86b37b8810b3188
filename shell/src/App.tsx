import { lazy, type ReactNode, Suspense } from 'react';
import { createBrowserRouter, Navigate, RouterProvider, type RouteObject } from 'react-router-dom';
import { AppThemeProvider, ToastHost } from '@sertifikasi/shared-ui/core';
import { Guard } from './guard';
import { LoginPage } from './pages/LoginPage';
import { NotFoundPage } from './pages/NotFoundPage';
import { PageLoading } from './components/PageLoading';
import { MainLayout } from './layouts/lazy';
import { RemoteScreen } from './components/RemoteScreen';
import { type AppRoute, LANDING, ROUTES } from './routes';

// The login page loads only what it shows (the 400 KB gz budget): the layout (header, menu, company
// selector; see layouts/lazy) and the profile page, with shared-ui's forms and tables, arrive after
// sign-in.
const ProfilePage = lazy(() => import('./pages/ProfilePage').then((m) => ({ default: m.ProfilePage })));

function page(route: AppRoute): ReactNode {
  if ('remote' in route) return <RemoteScreen remote={route.remote} path={route.path} />;
  switch (route.path) {
    case '/login':
      return <LoginPage />;
    case '/profile':
      return <ProfilePage />;
    default:
      return <NotFoundPage />;
  }
}

function element(route: AppRoute): ReactNode {
  // The layout shows while the user's permissions load and while a page or module loads, with a
  // progress bar in the content area (while the layout's own code loads, a bar on the bare page).
  const framed = (content: ReactNode) =>
    'bare' in route && route.bare ? content : <MainLayout title={route.title}>{content}</MainLayout>;
  return (
    <Guard route={route} pending={framed(<PageLoading />)}>
      {framed(<Suspense fallback={<PageLoading />}>{page(route)}</Suspense>)}
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
