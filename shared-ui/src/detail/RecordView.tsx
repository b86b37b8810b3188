import type { ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import SearchOffIcon from '@mui/icons-material/SearchOff';
import { UI_TEXT } from '../i18n/id';
import type { RecordState } from './useRecord';

export interface RecordViewProps<T> {
  /** From {@link useRecord}. */
  state: RecordState<T>;
  /** The page once the record is there. */
  children: (record: T) => ReactNode;
}

/** 'Opps, Data Tidak Ditemukan': an unknown or out-of-scope record. */
export function NotFoundBox() {
  return (
    <Paper variant="outlined" sx={{ p: 6 }}>
      <Stack spacing={1} sx={{ alignItems: 'center', color: 'text.secondary' }} role="status">
        <SearchOffIcon fontSize="large" />
        <Typography variant="h6" component="p">
          {UI_TEXT.notFound}
        </Typography>
      </Stack>
    </Paper>
  );
}

/**
 * The states of a detail page around its content: a progress bar while the record loads,
 * 'Opps, Data Tidak Ditemukan' on a 404, 'Maaf, ada kesalahan pada sistem' with 'Coba Lagi' when the
 * load failed, and the content once loaded.
 */
export function RecordView<T>({ state, children }: RecordViewProps<T>) {
  if (state.notFound) return <NotFoundBox />;
  if (state.failed && !state.record) {
    return (
      <Alert
        severity="warning"
        action={
          <Button color="inherit" size="small" onClick={state.reload}>
            {UI_TEXT.retry}
          </Button>
        }
      >
        {UI_TEXT.loadFailed}
      </Alert>
    );
  }
  if (!state.record) return <LinearProgress aria-label={UI_TEXT.loading} />;
  return <>{children(state.record)}</>;
}
