import { type ComponentProps, useEffect, useState } from 'react';
import Box from '@mui/material/Box';
import { AppLoading } from '../components/PageLoading';
import { Unavailable } from '../components/RemoteScreen';
import type * as MainLayoutModule from './MainLayout';

type LayoutModule = typeof MainLayoutModule;

let loading: Promise<LayoutModule> | undefined;
let loaded: LayoutModule | undefined;

/**
 * Loads the layout's code once (header, menu, company selector, with shared-ui's pieces). It is not
 * part of the login page (the 400 KB budget): the login page starts it while the sign-in runs, so
 * the landing page opens with its layout at once. A failed load is tried again next time.
 */
export function loadMainLayout(): Promise<LayoutModule> {
  loading ??= import('./MainLayout').then(
    (mod) => (loaded = mod),
    (err: unknown) => {
      loading = undefined;
      throw err;
    },
  );
  return loading;
}

/**
 * The layout, loaded on demand. Once its code is here (the login page preloads it) it renders at
 * once; before that (a reload) the page shows a progress bar on the portal's background, never a
 * white page; should the code not load, the module-unavailable message with 'Coba Lagi'.
 */
export function MainLayout(props: ComponentProps<LayoutModule['MainLayout']>) {
  const [mod, setMod] = useState(loaded);
  const [failed, setFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    if (mod) return;
    let alive = true;
    setFailed(false);
    loadMainLayout().then(
      (m) => alive && setMod(m),
      () => alive && setFailed(true),
    );
    return () => {
      alive = false;
    };
  }, [mod, attempt]);
  if (mod) return <mod.MainLayout {...props} />;
  if (failed) {
    return (
      <Box sx={{ p: 2 }}>
        <Unavailable onRetry={() => setAttempt((n) => n + 1)} />
      </Box>
    );
  }
  return <AppLoading />;
}
