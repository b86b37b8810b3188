import { useMemo, useRef, useState } from 'react';
import Box from '@mui/material/Box';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import ReplayIcon from '@mui/icons-material/Replay';
import {
  DELIVERY_STATE_LABELS,
  DELIVERY_STATES,
  MAIL_KIND_LABELS,
  MAIL_KINDS,
  type MailKind,
  type Notification,
} from '@sertifikasi/shared-contracts';
import { api, notifyApiError } from '@sertifikasi/shared-auth';
import { formatDateTime, type ResourceConfig, ResourceScreen, showToast } from '@sertifikasi/shared-ui';
import { DeliveryStateChip } from '../../components/DeliveryStateChip';
import { t } from '../../i18n/id';

const s = t.notificationLog;

const kindLabel = (kind: string) => MAIL_KIND_LABELS[kind as MailKind] ?? kind;

interface Filters {
  state: string;
  kind: string;
}

/** The two filters of the log: status and kind ('' = all). */
function FilterSelects({ value, onChange }: { value: Filters; onChange: (next: Filters) => void }) {
  return (
    <>
      <TextField
        select
        size="small"
        label={s.state}
        value={value.state}
        onChange={(e) => onChange({ ...value, state: e.target.value })}
        slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
        sx={{ minWidth: 150 }}
      >
        <MenuItem value="">{s.allStates}</MenuItem>
        {DELIVERY_STATES.map((state) => (
          <MenuItem key={state} value={state}>
            {DELIVERY_STATE_LABELS[state]}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        select
        size="small"
        label={s.kind}
        value={value.kind}
        onChange={(e) => onChange({ ...value, kind: e.target.value })}
        slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
        sx={{ minWidth: 190 }}
      >
        <MenuItem value="">{s.allKinds}</MenuItem>
        {MAIL_KINDS.map((kind) => (
          <MenuItem key={kind} value={kind}>
            {MAIL_KIND_LABELS[kind]}
          </MenuItem>
        ))}
      </TextField>
    </>
  );
}

/**
 * 'Log Notifikasi': every email of the outbox for the companies in the header's selection, newest
 * first, filtered by status, kind and text; 'Kirim Ulang' puts a failed one back in the queue
 * (docs/product.md "Notifications", docs/rules.md#notifications).
 */
export function NotificationLogScreen() {
  const [filters, setFilters] = useState<Filters>({ state: '', kind: '' });
  // The list's reload, as the screen hands it to its toolbar: a resend shows the row queued again.
  const reload = useRef<() => void>(() => undefined);

  const config = useMemo<ResourceConfig<Notification>>(() => {
    const resend = async (row: Notification) => {
      try {
        await api.post(`notification-log/${row.id}/resend`);
        showToast('success', s.resent);
        reload.current();
      } catch (err) {
        notifyApiError(err);
      }
    };
    return {
      title: s.title,
      entityLabel: s.title,
      endpoint: 'notification-log',
      searchPlaceholder: s.search,
      companyScoped: true,
      companyColumnIndex: 2,
      emptyText: s.empty,
      listParams: { ...filters },
      toolbar: ({ reload: reloadList }) => {
        reload.current = reloadList;
        return <FilterSelects value={filters} onChange={setFilters} />;
      },
      columns: [
        {
          header: s.at,
          render: (n) => <Box sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(n.created_at)}</Box>,
        },
        { header: s.recipient, render: (n) => n.recipient },
        { header: s.subject, render: (n) => <Box sx={{ minWidth: 220 }}>{n.subject}</Box> },
        { header: s.kind, render: (n) => kindLabel(n.kind) },
        { header: s.state, render: (n) => <DeliveryStateChip state={n.state} /> },
        { header: s.attempts, render: (n) => n.attempts, align: 'right' },
        {
          header: s.lastError,
          render: (n) =>
            n.last_error ? (
              <Typography variant="body2" color="error">
                {n.last_error}
              </Typography>
            ) : (
              '-'
            ),
        },
      ],
      actions: [
        {
          key: 'resend',
          label: s.resend,
          icon: <ReplayIcon fontSize="small" />,
          permission: 'notification-log',
          // A failed message only: a queued one is being sent, a sent one is not sent twice.
          hidden: (n) => n.state !== 'failed',
          onClick: (n) => void resend(n),
        },
      ],
    };
  }, [filters]);

  return <ResourceScreen config={config} />;
}
