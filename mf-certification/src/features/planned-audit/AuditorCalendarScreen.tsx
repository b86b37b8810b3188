import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  ALL,
  type AuditorCalendar,
  PLANNED_AUDIT_KIND_LABELS,
  type PlannedAuditKind,
  TEAM_ROLE_LABELS,
  type TeamRole,
} from '@sertifikasi/shared-contracts';
import { notifyApiError, useAuth } from '@sertifikasi/shared-auth';
import { formatDate, ListPagination, ListToolbar, useFetch, useListState } from '@sertifikasi/shared-ui';
import { t } from '../../i18n/id';

const s = t.calendar;

/**
 * 'Kalender Auditor' (permission `audit-plan`): a page of the active auditors of the selected
 * company (by name; the search box on the name, the page and page size in the address like every
 * list) with the days of the chosen month they are on a planned or done audit, and those audits.
 * One card per auditor, stacked: it fits a 390 px screen without sideways scrolling.
 */
export function AuditorCalendarScreen() {
  const company = useAuth((st) => st.company_id);
  // Empty until chosen: the first call asks without a month and the API answers this month by the
  // app's clock (its time zone), not the browser's; the field then shows that month.
  const [month, setMonth] = useState('');
  const one = company && company !== ALL ? company : null;
  const list = useListState({ resetKey: one });
  const searchParams: Record<string, string | number> = {
    company_id: one ?? '',
    page: list.page,
    paginate: list.pageSize,
    search: list.search,
  };
  if (/^\d{4}-\d{2}$/.test(month)) searchParams.month = month;
  const { data, loading } = useFetch<AuditorCalendar>(one ? 'auditor-calendar' : null, {
    searchParams,
    keepData: true,
    onError: notifyApiError,
  });
  if (!month && data?.month) setMonth(data.month);
  return (
    <Stack spacing={2}>
      <Paper variant="outlined" sx={{ minWidth: 0 }}>
        <ListToolbar
          title={s.title}
          search={{ value: list.searchText, onChange: list.setSearchText, placeholder: s.search }}
          pageSize={{ value: list.pageSize, onChange: list.setPageSize }}
        >
          <TextField
            label={s.month}
            type="month"
            size="small"
            value={month}
            onChange={(e) => {
              setMonth(e.target.value);
              if (list.page !== 1) list.setPage(1);
            }}
            slotProps={{ inputLabel: { shrink: true } }}
            sx={{ maxWidth: { sm: 220 } }}
          />
        </ListToolbar>
      </Paper>
      {!one && <Alert severity="info">{s.chooseCompany}</Alert>}
      {one && data && data.data.length === 0 && (
        <Alert severity="info">{list.search ? s.notFound : s.empty}</Alert>
      )}
      {data?.data.map((auditor) => (
        <Paper
          key={auditor.id}
          variant="outlined"
          sx={{ p: 2, minWidth: 0 }}
          component="section"
          aria-label={auditor.name}
        >
          <Box
            sx={{
              display: 'flex',
              flexWrap: 'wrap',
              gap: 1,
              alignItems: 'baseline',
              justifyContent: 'space-between',
            }}
          >
            <Typography variant="subtitle1" component="h2">
              {auditor.name}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              {auditor.days.length ? s.days(auditor.days.length) : s.free}
            </Typography>
          </Box>
          {auditor.days.length > 0 && (
            <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5, mt: 1 }}>
              {auditor.days.map((day) => (
                <Chip key={day} size="small" label={Number(day.slice(8))} />
              ))}
            </Box>
          )}
          {auditor.audits.map((audit) => (
            <Typography key={audit.id} variant="body2" sx={{ mt: 1, overflowWrap: 'anywhere' }}>
              {PLANNED_AUDIT_KIND_LABELS[audit.kind as PlannedAuditKind] ?? audit.kind} · {audit.client} ·{' '}
              {formatDate(audit.start_date)} - {formatDate(audit.end_date)} ·{' '}
              {TEAM_ROLE_LABELS[audit.role as TeamRole] ?? audit.role}
            </Typography>
          ))}
        </Paper>
      ))}
      {one && data && data.data.length > 0 && (
        <ListPagination
          current={data.current_page}
          last={data.last_page}
          from={data.from}
          to={data.to}
          total={data.total}
          onPage={list.setPage}
          disabled={loading}
        />
      )}
    </Stack>
  );
}
