import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { matchPath } from 'react-router-dom';
import { authStore } from '@sertifikasi/shared-auth';
import { App } from './App';
import { loadRemoteRoutes, registerRemotesFromServer } from './remotes';
import { ROUTES } from './routes';

/**
 * A signed-in visit straight to a module's screen (a reload, a bookmark): that module's code starts
 * loading now, beside the user's permissions and the layout, instead of after them. Only code is
 * fetched; the guard still decides what shows.
 */
function preloadScreen(pathname: string) {
  if (!authStore.getState().token) return;
  const route = ROUTES.find((r) => 'remote' in r && matchPath(r.path, pathname));
  if (route && 'remote' in route) loadRemoteRoutes(route.remote).catch(() => undefined);
}

function start() {
  // Not awaited: the first screen (the login page needs no module) is drawn while it is read.
  void registerRemotesFromServer();
  preloadScreen(window.location.pathname);
  const root = document.getElementById('root');
  if (!root) throw new Error('#root is missing');
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}

start();
