import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { UI_TEXT } from '@sertifikasi/shared-ui';
import { t } from '../../i18n/id';
import { formatBytes, type ExportProgress } from './useExport';

/** A running export: a progress bar (determinate when the size is known), the bytes received, 'Batalkan'. */
export function ExportPanel({ progress, onCancel }: { progress: ExportProgress; onCancel: () => void }) {
  const { received, total } = progress;
  const text =
    total !== undefined
      ? t.report.receivedOf(formatBytes(received), formatBytes(total))
      : t.report.received(formatBytes(received));
  return (
    <Paper
      variant="outlined"
      sx={{ p: 2, bgcolor: 'action.hover' }}
      role="region"
      aria-label={t.report.exportProgress}
    >
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
        <Stack spacing={1} sx={{ flex: 1, minWidth: 0 }}>
          <Typography variant="body2" sx={{ fontWeight: 600 }}>
            {t.report.exportProgress}
          </Typography>
          <LinearProgress
            aria-label={t.report.exportProgress}
            aria-valuetext={text}
            {...(total ? { variant: 'determinate', value: Math.min(100, (received / total) * 100) } : {})}
          />
          <Typography variant="body2" color="text.secondary" aria-live="polite">
            {text}
          </Typography>
        </Stack>
        <Button
          variant="outlined"
          color="warning"
          onClick={onCancel}
          sx={{ alignSelf: { xs: 'flex-start', sm: 'center' } }}
        >
          {UI_TEXT.cancel}
        </Button>
      </Stack>
    </Paper>
  );
}
