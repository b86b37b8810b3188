import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import {
  type AuditScheduleRow,
  CYCLE_KIND_LABELS,
  CYCLE_STATE_LABELS,
  type CycleState,
} from '@sertifikasi/shared-contracts';
import { formatDate, RowActions, type RowAction, UI_TEXT } from '@sertifikasi/shared-ui';
import { t } from '../../i18n/id';

export type ScheduleRow = AuditScheduleRow & { id: string };

const STATE_COLORS: Record<CycleState, 'error' | 'warning' | 'info' | 'default'> = {
  LATE: 'error',
  SOON: 'warning',
  UPCOMING: 'info',
  LATER: 'default',
};

export const StateChip = ({ state }: { state: CycleState }) => (
  <Chip size="small" label={CYCLE_STATE_LABELS[state]} color={STATE_COLORS[state]} sx={{ fontWeight: 600 }} />
);

/** 'Rencana Audit' of the item's scheme: its list narrowed to the scheme. */
export const planHref = (row: AuditScheduleRow) =>
  `/planned-audit?scheme_id=${encodeURIComponent(row.scheme_id)}`;

/** Compact: the month and year once when both days share them ('08 - 09 Desember 2026'). */
const range = (start: string, end: string) => {
  if (start === end) return formatDate(start);
  const [from, to] = [formatDate(start), formatDate(end)];
  return start.slice(0, 7) === end.slice(0, 7) ? `${from.slice(0, 2)} - ${to}` : `${from} - ${to}`;
};

/** The item's PLANNED audit: its dates (a link to it) and its lead auditor; '-' when none. */
export function PlannedCell({ row }: { row: AuditScheduleRow }): ReactNode {
  const plan = row.planned_audit;
  if (!plan) return '-';
  return (
    <Stack spacing={0.25} sx={{ minWidth: 120, maxWidth: 170 }}>
      <Link component={RouterLink} to={planHref(row)} variant="body2">
        {range(plan.start_date, plan.end_date)}
      </Link>
      <Typography variant="caption" color="text.secondary">
        {t.schedule.leadOf(plan.lead ?? '-')}
      </Typography>
    </Stack>
  );
}

/**
 * The schedule on a phone: one card per item (client, kind, due date and state, the planned audit
 * when there is one, the row's actions), so nothing needs a sideways scroll.
 */
export function ScheduleCards({
  rows,
  actions,
  all,
  loading,
}: {
  rows: readonly ScheduleRow[];
  actions: readonly RowAction<ScheduleRow>[];
  all: boolean;
  loading: boolean;
}) {
  if (!rows.length)
    return loading ? (
      <LinearProgress aria-label={UI_TEXT.refreshing} />
    ) : (
      <Typography sx={{ p: 3, textAlign: 'center' }} color="text.secondary">
        {UI_TEXT.empty}
      </Typography>
    );
  return (
    <Stack
      component="ul"
      aria-label={t.schedule.title}
      spacing={1}
      sx={{ listStyle: 'none', m: 0, px: 2, pb: 2 }}
    >
      {rows.map((row) => (
        <Paper component="li" key={row.id} variant="outlined" sx={{ p: 1.5, minWidth: 0 }}>
          <Box sx={{ display: 'flex', gap: 1, justifyContent: 'space-between', alignItems: 'flex-start' }}>
            <Box sx={{ minWidth: 0 }}>
              <Typography variant="subtitle2" sx={{ overflowWrap: 'anywhere' }}>
                {row.client_name}
              </Typography>
              <Typography variant="caption" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
                {row.cert_name}
                {row.cert_number ? ` · ${row.cert_number}` : ''}
                {all ? ` · ${row.company_name}` : ''}
              </Typography>
            </Box>
            <StateChip state={row.state} />
          </Box>
          <Typography variant="body2" sx={{ mt: 0.5 }}>
            {CYCLE_KIND_LABELS[row.kind]} · {t.schedule.dueDate} {formatDate(row.due_date)}
          </Typography>
          {row.planned_audit && (
            <Box sx={{ mt: 0.5 }}>
              <PlannedCell row={row} />
            </Box>
          )}
          {actions.length > 0 && (
            <Box sx={{ mt: 0.5, display: 'flex', justifyContent: 'flex-end' }}>
              <RowActions row={row} actions={actions} />
            </Box>
          )}
        </Paper>
      ))}
    </Stack>
  );
}
