import Box from '@mui/material/Box';
import LinearProgress, { type LinearProgressProps } from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import {
  EFFECTIVE_STATUS_LABELS,
  type DashboardTotals,
  type EffectiveStatus,
} from '@sertifikasi/shared-contracts';
import { formatNumber } from '@sertifikasi/shared-ui';
import { t } from '../../i18n/id';

const COLORS: Record<EffectiveStatus, LinearProgressProps['color']> = {
  ACTIVE: 'success',
  EXPIRED: 'error',
  SUSPENDED: 'warning',
  WITHDRAWN: 'secondary',
  NOACTIVE: 'inherit',
  DRAFT: 'info',
};

/** A status's share of all schemes, in percent (0 when there are none). */
export function statusShare(total: number, all: number): number {
  return all > 0 ? (total / all) * 100 : 0;
}

/**
 * One determinate progress bar per status (EXPIRED, 'KADALUARSA', included): its width, and its
 * `aria-valuenow`, is the status's share of all schemes (status total / company_certificate_total).
 */
export function StatusBars({ totals }: { totals: DashboardTotals | null }) {
  const all = totals?.company_certificate_total ?? 0;
  return (
    <Paper variant="outlined" component="section" aria-labelledby="status-bars-title" sx={{ p: 2 }}>
      <Typography id="status-bars-title" variant="h6" component="h2" sx={{ mb: 2 }}>
        {t.dashboard.statusTitle}
      </Typography>
      {!totals ? (
        <Stack spacing={2}>
          {Object.keys(COLORS).map((status) => (
            <Skeleton key={status} height={32} />
          ))}
        </Stack>
      ) : (
        <Stack spacing={2}>
          {totals.company_certificate_scheme_bystatus.map(({ status, total }) => {
            const label = EFFECTIVE_STATUS_LABELS[status];
            const share = statusShare(total, all);
            const percent = formatNumber(Math.round(share * 10) / 10);
            return (
              <Box key={status}>
                <Stack direction="row" spacing={1} sx={{ justifyContent: 'space-between', mb: 0.5 }}>
                  <Typography variant="body2" sx={{ fontWeight: 600 }}>
                    {label}
                  </Typography>
                  <Typography variant="body2" color="text.secondary" sx={{ textAlign: 'right' }}>
                    {t.dashboard.statusShare(formatNumber(total), formatNumber(all), percent)}
                  </Typography>
                </Stack>
                <LinearProgress
                  variant="determinate"
                  value={share}
                  color={COLORS[status]}
                  aria-label={label}
                  aria-valuetext={`${percent}%`}
                  // NOT ACTIVE in grey ('inherit' takes the text colour).
                  sx={{
                    height: 8,
                    borderRadius: 4,
                    ...(COLORS[status] === 'inherit' ? { color: 'grey.500' } : {}),
                  }}
                />
              </Box>
            );
          })}
        </Stack>
      )}
    </Paper>
  );
}
