import { useEffect, useState } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import HistoryIcon from '@mui/icons-material/History';
import { SCHEME_STATUS_LABELS, type Scheme, type SchemeHistoryEntry } from '@sertifikasi/shared-contracts';
import { api, notifyApiError } from '@sertifikasi/shared-auth';
import { formatDate, orDash, UI_TEXT } from '@sertifikasi/shared-ui';
import { StatusBadge } from '../../components/StatusBadge';
import { usePhone } from '../../components/usePhone';
import { t } from '../../i18n/id';

/** The status changes of a scheme (`GET company-certificate-scheme/{id}/history`), newest first. */
function useSchemeHistory(id: string, open: boolean) {
  const [state, setState] = useState<{ entries: SchemeHistoryEntry[] | null; loading: boolean }>({
    entries: null,
    loading: false,
  });
  useEffect(() => {
    if (!open) return;
    const controller = new AbortController();
    setState({ entries: null, loading: true });
    api
      .get(`company-certificate-scheme/${encodeURIComponent(id)}/history`, { signal: controller.signal })
      .json<SchemeHistoryEntry[]>()
      .then(
        (entries) => {
          if (!controller.signal.aborted) setState({ entries, loading: false });
        },
        (err: unknown) => {
          if (controller.signal.aborted) return;
          notifyApiError(err);
          setState({ entries: [], loading: false });
        },
      );
    return () => controller.abort();
  }, [id, open]);
  return state;
}

/**
 * 'Riwayat Status': a button on a scheme's card opening a dialog with each change of its status
 * (docs/rules.md#records and #status): the status, the date from which it holds, when it was changed
 * and by whom.
 */
export function SchemeHistoryButton({ scheme }: { scheme: Scheme }) {
  const [open, setOpen] = useState(false);
  const fullScreen = usePhone();
  const { entries, loading } = useSchemeHistory(scheme.id, open);
  const title = t.scheme.historyTitle(scheme.cert_number);
  return (
    <>
      <Button size="small" variant="outlined" startIcon={<HistoryIcon />} onClick={() => setOpen(true)}>
        {t.scheme.history}
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} fullScreen={fullScreen} maxWidth="sm" fullWidth>
        <DialogTitle sx={{ overflowWrap: 'anywhere' }}>{title}</DialogTitle>
        <DialogContent dividers>
          {loading && <LinearProgress aria-label={t.scheme.historyLoading} />}
          {entries && entries.length === 0 && (
            <Typography role="status" color="text.secondary">
              {t.scheme.historyEmpty}
            </Typography>
          )}
          {entries && entries.length > 0 && (
            <List aria-label={t.scheme.history} disablePadding>
              {entries.map((entry) => (
                <ListItem key={`${entry.at}-${entry.to}`} divider disableGutters>
                  <ListItemText
                    disableTypography
                    primary={
                      <Stack
                        direction="row"
                        spacing={1}
                        useFlexGap
                        sx={{ alignItems: 'center', flexWrap: 'wrap' }}
                      >
                        {entry.from && (
                          <>
                            <Typography variant="body2" color="text.secondary">
                              {SCHEME_STATUS_LABELS[entry.from]}
                            </Typography>
                            <Typography variant="body2" color="text.secondary" aria-hidden>
                              →
                            </Typography>
                          </>
                        )}
                        <StatusBadge status={entry.to} />
                      </Stack>
                    }
                    secondary={
                      <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
                        {t.scheme.historyDate} {formatDate(entry.effective_from)} ·{' '}
                        {entry.from ? t.scheme.historyChangedAt : t.scheme.historyCreatedAt}{' '}
                        {formatDate(entry.at)} · {t.scheme.historyBy} {orDash(entry.by)}
                      </Typography>
                    }
                  />
                </ListItem>
              ))}
            </List>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)}>{UI_TEXT.close}</Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
