import { useEffect, useMemo, useRef, useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import HistoryIcon from '@mui/icons-material/History';
import SendIcon from '@mui/icons-material/Send';
import type { ListResponse, Webhook, WebhookCreated, WebhookDelivery } from '@sertifikasi/shared-contracts';
import { api, notifyApiError } from '@sertifikasi/shared-auth';
import {
  formatDateTime,
  ResourceScreen,
  type ResourceConfig,
  showToast,
  useFetch,
} from '@sertifikasi/shared-ui';
import { DeliveryStateChip } from '../../components/DeliveryStateChip';
import { t } from '../../i18n/id';
import { followDelivery } from './followDelivery';
import { type WebhookFormValues, webhookResource } from './webhooks.resource';

const s = t.webhooks;

/** The secret of a new webhook, shown this once, with a copy button. */
function SecretDialog({ secret, onClose }: { secret: string | null; onClose: () => void }) {
  const copy = async () => {
    await navigator.clipboard?.writeText(secret ?? '');
    showToast('success', s.copied);
  };
  return (
    <Dialog
      open={secret !== null}
      onClose={onClose}
      fullWidth
      maxWidth="sm"
      aria-labelledby="webhook-secret-title"
    >
      <DialogTitle id="webhook-secret-title">{s.secretTitle}</DialogTitle>
      <DialogContent>
        <Alert severity="warning" sx={{ mb: 2 }}>
          {s.secretIntro}
        </Alert>
        <TextField
          label={s.secretLabel}
          value={secret ?? ''}
          fullWidth
          // Wrapped, so the whole secret shows on a phone too.
          multiline
          slotProps={{
            input: { readOnly: true, sx: { fontFamily: 'monospace', wordBreak: 'break-all' } },
          }}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={() => void copy()}>{s.copy}</Button>
        <Button variant="contained" onClick={onClose}>
          {s.close}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** One try of a delivery as a line: when, the answer (or none), how long. */
const tryLine = (tryOf: WebhookDelivery['tries'][number]) =>
  `${formatDateTime(tryOf.at)} · ${s.tryLine(
    tryOf.status !== null ? `HTTP ${tryOf.status}` : s.noAnswer,
    tryOf.duration_ms,
  )}${tryOf.error ? ` · ${tryOf.error}` : ''}`;

/** The deliveries of one webhook, newest first, each with its tries and 'Kirim Ulang'. */
function DeliveriesDialog({ webhook, onClose }: { webhook: Webhook; onClose: () => void }) {
  const theme = useTheme();
  const fullScreen = useMediaQuery(theme.breakpoints.down('sm'));
  const { data, reload } = useFetch<ListResponse<WebhookDelivery>>(`webhook/${webhook.id}/deliveries`, {
    searchParams: { page: 1, paginate: 50 },
    keepData: true,
    onError: notifyApiError,
  });
  const [busy, setBusy] = useState<string | null>(null);
  // Closing the dialog stops following a resent delivery.
  const closed = useRef(new AbortController());
  useEffect(() => {
    const stop = new AbortController();
    closed.current = stop;
    return () => stop.abort();
  }, []);
  /** Kirim Ulang: queued at once (the list shows it so), then followed until its try has ended. */
  const resend = async (delivery: WebhookDelivery) => {
    setBusy(delivery.id);
    try {
      const queued = await api.post(`webhook-delivery/${delivery.id}/resend`).json<WebhookDelivery>();
      reload();
      await followDelivery(queued.id, queued.tries.length, closed.current.signal);
      if (closed.current.signal.aborted) return;
      showToast('success', s.resent);
      reload();
    } catch (err) {
      notifyApiError(err);
    } finally {
      setBusy(null);
    }
  };
  const rows = data?.data ?? [];
  return (
    <Dialog
      open
      onClose={onClose}
      fullWidth
      maxWidth="md"
      fullScreen={fullScreen}
      aria-labelledby="deliveries-title"
    >
      <DialogTitle id="deliveries-title">
        {s.deliveries}
        <Typography variant="body2" color="text.secondary" sx={{ wordBreak: 'break-all' }}>
          {webhook.url}
        </Typography>
      </DialogTitle>
      <DialogContent dividers>
        {data && rows.length === 0 && <Typography color="text.secondary">{s.noDeliveries}</Typography>}
        <List disablePadding>
          {rows.map((d) => (
            <ListItem key={d.id} divider disableGutters sx={{ display: 'block', py: 1.5 }}>
              <Stack
                direction={{ xs: 'column', sm: 'row' }}
                spacing={1}
                sx={{ alignItems: { sm: 'center' }, justifyContent: 'space-between' }}
              >
                <Stack
                  direction="row"
                  spacing={1}
                  sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 0.5 }}
                >
                  <Typography variant="subtitle2" component="span">
                    {d.event_type}
                  </Typography>
                  <DeliveryStateChip state={d.state} />
                  <Typography variant="body2" color="text.secondary" component="span">
                    {formatDateTime(d.created_at)}
                  </Typography>
                </Stack>
                {d.state !== 'queued' && (
                  <Button
                    size="small"
                    variant="outlined"
                    disabled={busy === d.id}
                    onClick={() => void resend(d)}
                    aria-label={`${s.resend} ${d.event_type} ${formatDateTime(d.created_at)}`}
                  >
                    {s.resend}
                  </Button>
                )}
              </Stack>
              {d.tries.map((tryOf, i) => (
                <Typography
                  key={i}
                  variant="body2"
                  color={tryOf.error ? 'error' : 'text.secondary'}
                  sx={{ mt: 0.5 }}
                >
                  {tryLine(tryOf)}
                </Typography>
              ))}
            </ListItem>
          ))}
        </List>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{s.close}</Button>
      </DialogActions>
    </Dialog>
  );
}

/**
 * 'Webhook': the generic list of a company's webhooks (webhooks.resource.tsx) with 'Kirim Tes'
 * (queued, followed until its try has ended; the toast says how it went), 'Riwayat Pengiriman'
 * (deliveries, tries, 'Kirim Ulang') and, after 'Tambah Webhook', its secret shown once.
 */
export function WebhookScreen() {
  const [secret, setSecret] = useState<string | null>(null);
  const [deliveriesOf, setDeliveriesOf] = useState<Webhook | null>(null);

  const config = useMemo<ResourceConfig<Webhook, WebhookFormValues>>(() => {
    const sendTest = async (webhook: Webhook) => {
      try {
        const queued = await api.post(`webhook/${webhook.id}/test`).json<WebhookDelivery>();
        const tried = await followDelivery(queued.id, queued.tries.length);
        if (!tried) showToast('warning', s.testQueued);
        else if (tried.error === null) showToast('success', s.testSent);
        else showToast('warning', s.testFailed(tried.error));
      } catch (err) {
        notifyApiError(err);
      }
    };
    return {
      ...webhookResource,
      onSaved: (record, mode) => {
        if (mode === 'create') setSecret((record as WebhookCreated).secret);
      },
      actions: [
        {
          key: 'test',
          label: s.sendTest,
          icon: <SendIcon fontSize="small" />,
          permission: 'webhook',
          onClick: (w) => void sendTest(w),
        },
        {
          key: 'deliveries',
          label: s.deliveries,
          icon: <HistoryIcon fontSize="small" />,
          permission: 'webhook',
          onClick: setDeliveriesOf,
        },
        'edit',
        'delete',
      ],
    };
  }, []);

  return (
    <>
      <ResourceScreen config={config} />
      <SecretDialog secret={secret} onClose={() => setSecret(null)} />
      {deliveriesOf && <DeliveriesDialog webhook={deliveriesOf} onClose={() => setDeliveriesOf(null)} />}
    </>
  );
}
