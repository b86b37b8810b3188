import { Component, type ComponentType, type ReactNode, useEffect, useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { loadRemoteRoutes } from '../remotes';
import { PageLoading } from './PageLoading';
import type { RemoteName } from '../routes';
import { t } from '../i18n/id';

interface Props {
  remote: RemoteName;
  /** The route path as declared (e.g. '/company-certificate/:id'). */
  path: string;
}

/** 'Modul ini belum tersedia ...' with 'Coba Lagi': a part of the portal whose code could not load. */
export function Unavailable({ onRetry }: { onRetry: () => void }) {
  return (
    <Alert
      severity="warning"
      action={
        <Button color="inherit" size="small" onClick={onRetry} sx={{ whiteSpace: 'nowrap' }}>
          {t.remote.retry}
        </Button>
      }
    >
      {t.remote.unavailable}
    </Alert>
  );
}

class Boundary extends Component<{ onRetry: () => void; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    if (this.state.failed) {
      return (
        <Unavailable
          onRetry={() => {
            this.setState({ failed: false });
            this.props.onRetry();
          }}
        />
      );
    }
    return this.props.children;
  }
}

/**
 * A screen owned by a micro-frontend. While it loads a progress bar runs at the top of the content area; if the module is down, the
 * wrong URL or throws, a clear Indonesian message with a retry shows inside the layout, and the rest
 * of the portal keeps working.
 */
export function RemoteScreen({ remote, path }: Props) {
  const [attempt, setAttempt] = useState(0);
  const [state, setState] = useState<{ screen?: ComponentType; failed?: boolean }>({});

  useEffect(() => {
    let alive = true;
    setState({});
    loadRemoteRoutes(remote).then(
      (mod) => {
        const screen = mod.screens[path];
        if (alive) setState(screen ? { screen } : { failed: true });
      },
      () => alive && setState({ failed: true }),
    );
    return () => {
      alive = false;
    };
  }, [remote, path, attempt]);

  const retry = () => setAttempt((n) => n + 1);
  if (state.failed) return <Unavailable onRetry={retry} />;
  if (!state.screen) return <PageLoading label={t.remote.loading} />;
  const Screen = state.screen;
  return (
    <Boundary key={attempt} onRetry={retry}>
      <Screen />
    </Boundary>
  );
}
