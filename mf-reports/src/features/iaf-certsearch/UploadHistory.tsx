import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import ListIcon from '@mui/icons-material/FormatListBulletedOutlined';
import {
  IAF_UPLOAD_STATE_LABELS,
  type IafRefusal,
  type IafUpload,
  type IafUploadList,
  type IafUploadState,
} from '@sertifikasi/shared-contracts';
import {
  formatDateTime,
  formatNumber,
  ListToolbar,
  ResourceTable,
  UI_TEXT,
  type FetchState,
  type ResourceColumn,
  type RowAction,
} from '@sertifikasi/shared-ui';
import { t } from '../../i18n/id';
import { uploadRunning } from './useIafCompany';

const STATE_COLORS: Record<IafUploadState, 'default' | 'info' | 'success' | 'error'> = {
  queued: 'default',
  running: 'info',
  done: 'success',
  failed: 'error',
};

const triggerOf = (u: IafUpload) => {
  const trigger = u.trigger === 'schedule' ? t.iaf.triggerSchedule : t.iaf.triggerManual;
  return u.all ? t.iaf.triggerAll(trigger) : trigger;
};

const columns: ResourceColumn<IafUpload>[] = [
  { header: t.iaf.when, render: (u) => formatDateTime(u.created_at) },
  { header: t.iaf.trigger, render: triggerOf },
  {
    header: t.iaf.state,
    render: (u) => (
      <Stack spacing={0.5} sx={{ alignItems: 'flex-start' }}>
        <Chip size="small" color={STATE_COLORS[u.state]} label={IAF_UPLOAD_STATE_LABELS[u.state]} />
        {u.error && (
          <Typography variant="caption" color="error">
            {t.iaf.stopped(u.error)}
          </Typography>
        )}
      </Stack>
    ),
  },
  { header: t.iaf.sent, align: 'right', render: (u) => formatNumber(u.sent) },
  { header: t.iaf.accepted, align: 'right', render: (u) => formatNumber(u.accepted) },
  { header: t.iaf.refused, align: 'right', render: (u) => formatNumber(u.refused.length) },
];

/** The records IAF CertSearch refused in one upload, with its reason for each. */
function RefusedDialog({ upload, onClose }: { upload: IafUpload | null; onClose: () => void }) {
  const theme = useTheme();
  const small = useMediaQuery(theme.breakpoints.down('sm'));
  const rows = (upload?.refused ?? []).map((r: IafRefusal, i) => ({ ...r, id: String(i) }));
  return (
    <Dialog open={!!upload} onClose={onClose} fullWidth maxWidth="md" fullScreen={small}>
      <DialogTitle>{t.iaf.refusedTitle}</DialogTitle>
      <DialogContent dividers sx={{ px: 0 }}>
        {upload && (
          <Stack spacing={1}>
            <Typography variant="body2" sx={{ px: 3 }}>
              {formatDateTime(upload.created_at)} · {triggerOf(upload)} ·{' '}
              {IAF_UPLOAD_STATE_LABELS[upload.state]}
            </Typography>
            {upload.error && (
              <Alert severity="error" sx={{ mx: 3 }}>
                {t.iaf.stopped(upload.error)}
              </Alert>
            )}
            <ResourceTable
              columns={[
                { header: t.iaf.certNumber, render: (r) => r.cert_number },
                {
                  header: t.iaf.reason,
                  render: (r) => <span style={{ overflowWrap: 'anywhere' }}>{r.reason}</span>,
                },
              ]}
              rows={rows}
              loading={false}
              emptyText={t.iaf.refusedNone}
              label={t.iaf.refusedTitle}
            />
          </Stack>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{UI_TEXT.close}</Button>
      </DialogActions>
    </Dialog>
  );
}

/**
 * 'Riwayat Unggah': the company's uploads, newest first (when, how started, state, sent, accepted,
 * refused); a row's action opens the records refused with IAF's reason. A bar shows while an upload
 * is followed.
 */
export function UploadHistory({ uploads }: { uploads: FetchState<IafUploadList> }) {
  const [open, setOpen] = useState<IafUpload | null>(null);
  const rows = uploads.data?.data ?? [];
  const following = rows.some(uploadRunning);
  const actions: RowAction<IafUpload>[] = [
    { key: 'refused', label: t.iaf.refusedOpen, icon: <ListIcon fontSize="small" />, onClick: setOpen },
  ];
  return (
    <Paper variant="outlined" sx={{ overflow: 'hidden' }}>
      <ListToolbar title={t.iaf.history} />
      {following && <LinearProgress aria-label={t.iaf.following} />}
      {uploads.failure && !uploads.data && (
        <Alert severity="error" role="alert" sx={{ m: 2 }}>
          {t.iaf.historyFailed}
        </Alert>
      )}
      <ResourceTable<IafUpload>
        columns={columns}
        rows={rows}
        loading={uploads.loading && !uploads.data}
        actions={actions}
        label={t.iaf.history}
      />
      <RefusedDialog upload={open} onClose={() => setOpen(null)} />
    </Paper>
  );
}
