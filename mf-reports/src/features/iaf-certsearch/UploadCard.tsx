import { useId, useState } from 'react';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import CloudUploadIcon from '@mui/icons-material/CloudUploadOutlined';
import { IAF_MESSAGES, type IafSettings, type IafUpload } from '@sertifikasi/shared-contracts';
import { useSaveRecord } from '@sertifikasi/shared-ui';
import { t } from '../../i18n/id';

/** Why the uploads cannot be started now, or null when they can. */
export function uploadBlocked(settings: IafSettings | null, running: boolean): string | null {
  if (!settings) return null;
  if (!settings.has_key) return IAF_MESSAGES.noKey;
  if (!settings.enabled) return t.iaf.offReason;
  if (running) return t.iaf.runningReason;
  return null;
}

/**
 * 'Unggah Sekarang' (the schemes changed since the last successful upload) and 'Unggah Semua'
 * (every ready one): each queues an upload (`202`) that the job sends; disabled, with the reason
 * under them, while the account is off or has no key, or an upload is still running.
 */
export function UploadCard({
  companyId,
  settings,
  running,
  onQueued,
}: {
  companyId: string;
  settings: IafSettings | null;
  running: boolean;
  onQueued: () => void;
}) {
  const { save, saving } = useSaveRecord<IafUpload>();
  const [which, setWhich] = useState<boolean | null>(null);
  const reasonId = useId();
  const blocked = uploadBlocked(settings, running);
  const disabled = !settings || !!blocked || saving;
  const start = async (all: boolean) => {
    setWhich(all);
    const queued = await save({
      endpoint: 'iaf-certsearch/uploads',
      mode: 'create',
      body: { company_id: companyId, all },
      successMessage: t.iaf.uploadQueued,
    });
    setWhich(null);
    if (queued.ok) onQueued();
  };
  const button = (all: boolean) => (
    <Button
      variant={all ? 'outlined' : 'contained'}
      disabled={disabled}
      aria-describedby={blocked ? reasonId : undefined}
      startIcon={
        saving && which === all ? <CircularProgress size={16} color="inherit" /> : <CloudUploadIcon />
      }
      onClick={() => void start(all)}
    >
      {all ? t.iaf.uploadAll : t.iaf.uploadNow}
    </Button>
  );
  return (
    <Paper component="section" variant="outlined" aria-labelledby="iaf-upload" sx={{ p: 2 }}>
      <Stack spacing={2}>
        <Typography id="iaf-upload" variant="h6" component="h2">
          {t.iaf.upload}
        </Typography>
        <Stack spacing={0.5}>
          <Typography variant="body2" color="text.secondary">
            <strong>{t.iaf.uploadNow}</strong>: {t.iaf.uploadNowHelp}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            <strong>{t.iaf.uploadAll}</strong>: {t.iaf.uploadAllHelp}
          </Typography>
        </Stack>
        <Stack direction="row" spacing={1.5} useFlexGap sx={{ flexWrap: 'wrap' }}>
          {button(false)}
          {button(true)}
        </Stack>
        {blocked && (
          <Typography id={reasonId} variant="body2" color={running ? 'info.main' : 'warning.dark'}>
            {blocked}
          </Typography>
        )}
      </Stack>
    </Paper>
  );
}
