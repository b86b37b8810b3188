import { lazy, Suspense, type ComponentType } from 'react';
import LinearProgress from '@mui/material/LinearProgress';

/**
 * A remote's screen whose code loads when it is first shown, with a thin progress bar meanwhile:
 * a module's `routes` then brings only the screens opened (the dashboard not the reports' date
 * pickers; '/company' not the roles', auditors' or webhooks' code and the MUI parts only they use).
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
