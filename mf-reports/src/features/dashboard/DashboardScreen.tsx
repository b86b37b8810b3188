import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import { DASHBOARD_ENDPOINTS, type DashboardTotals } from '@sertifikasi/shared-contracts';
import { useAuth } from '@sertifikasi/shared-auth';
import { logLoadFailure, useFetch } from '@sertifikasi/shared-ui';
import { ChartCard } from './ChartCard';
import { ExpiringList } from './ExpiringList';
import { StatusBars } from './StatusBars';
import { TotalCards } from './TotalCards';

const twoColumns = {
  display: 'grid',
  gap: 2,
  gridTemplateColumns: { xs: 'minmax(0, 1fr)', lg: 'repeat(2, minmax(0, 1fr))' },
} as const;

/**
 * `/statistik` (docs/rules.md#screens and #dashboard-and-reports): the four totals, the status bars, the certificates
 * expiring this month and the two charts, for the header's company (or ALL); everything loads again
 * when the header's company changes.
 */
export function DashboardScreen() {
  const companyId = useAuth((s) => s.company_id);
  const path = companyId ? `${DASHBOARD_ENDPOINTS.totals}/${encodeURIComponent(companyId)}` : null;
  const totals = useFetch<DashboardTotals>(path, { onError: logLoadFailure }).data;
  return (
    <Stack spacing={2}>
      <TotalCards totals={totals} />
      <Box sx={twoColumns}>
        <StatusBars totals={totals} />
        <ExpiringList totals={totals} />
      </Box>
      <Box sx={twoColumns}>
        <ChartCard kind="company" companyId={companyId} />
        <ChartCard kind="training" companyId={companyId} />
      </Box>
    </Stack>
  );
}

export default DashboardScreen;
