import { Link as RouterLink } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import EventIcon from '@mui/icons-material/EventOutlined';
import { AUDIT_SCHEDULE, type AuditDueSummary, routeLink } from '@sertifikasi/shared-contracts';
import { useCan } from '@sertifikasi/shared-auth';
import { formatNumber, logLoadFailure, useFetch } from '@sertifikasi/shared-ui';
import { t } from '../../i18n/id';

/** Where 'Jadwal Audit' lives (the route registry). */
const SCHEDULE_PATH = routeLink('/audit-schedule', {});

function Figure({ label, value, color }: { label: string; value: number | undefined; color: string }) {
  return (
    <Box role="group" aria-label={label} sx={{ minWidth: 120 }}>
      <Typography variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography variant="h5" component="p" sx={{ fontWeight: 600, color }}>
        {value === undefined ? <Skeleton width={48} /> : formatNumber(value)}
      </Typography>
    </Box>
  );
}

/**
 * 'Audit Jatuh Tempo' (docs/product.md, "The certification cycle"): how many items of the
 * certification cycle are late and how many are due within 30 days, for the header's company, with
 * a link to 'Jadwal Audit'. Shown to users who may open that screen.
 */
export function AuditDueCard({ companyId }: { companyId: string | null }) {
  const allowed = useCan(AUDIT_SCHEDULE.permission);
  const path =
    allowed && companyId ? `${AUDIT_SCHEDULE.endpoint}/${encodeURIComponent(companyId)}/summary` : null;
  const summary = useFetch<AuditDueSummary>(path, { onError: logLoadFailure }).data;
  if (!allowed) return null;
  return (
    <Paper component="section" variant="outlined" aria-label={t.dashboard.auditDue} sx={{ p: 2 }}>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={2}
        sx={{ alignItems: { sm: 'center' }, justifyContent: 'space-between' }}
      >
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
          <Box
            aria-hidden
            sx={{
              display: 'grid',
              placeItems: 'center',
              width: 48,
              height: 48,
              flexShrink: 0,
              borderRadius: 2,
              color: 'error.main',
              bgcolor: 'action.hover',
            }}
          >
            <EventIcon />
          </Box>
          <Typography variant="h6" component="h2">
            {t.dashboard.auditDue}
          </Typography>
        </Stack>
        <Stack direction="row" spacing={3}>
          <Figure label={t.dashboard.auditLate} value={summary?.late} color="error.main" />
          <Figure label={t.dashboard.auditSoon} value={summary?.soon} color="warning.dark" />
        </Stack>
        <Button component={RouterLink} to={SCHEDULE_PATH} variant="outlined">
          {t.dashboard.auditOpen}
        </Button>
      </Stack>
    </Paper>
  );
}
