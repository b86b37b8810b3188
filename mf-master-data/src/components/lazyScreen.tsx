import { lazy, Suspense, type ComponentType } from 'react';
import LinearProgress from '@mui/material/LinearProgress';

/**
 * A screen whose code loads when it is first shown, with a thin progress bar meanwhile (as
 * mf-reports' screens). The list screens ('/company', '/user') need none of the other screens' code.
 */
export function lazyScreen(load: () => Promise<{ default: ComponentType }>): ComponentType {
  const Screen = lazy(load);
  return function LazyScreen() {
    return (
      <Suspense fallback={<LinearProgress aria-hidden />}>
        <Screen />
      </Suspense>
    );
  };
}
