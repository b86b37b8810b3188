import { lazy, Suspense, type ComponentType } from 'react';
import LinearProgress from '@mui/material/LinearProgress';

/**
 * A screen whose code loads when it is first shown (the dashboard does not bring the reports' date
 * pickers, nor a report the dashboard's charts), with a thin progress bar meanwhile.
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
