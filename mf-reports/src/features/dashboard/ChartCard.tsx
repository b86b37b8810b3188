import { lazy, Suspense, useState } from 'react';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import SearchIcon from '@mui/icons-material/Search';
import {
  CHART_GRANULARITY_LABELS,
  CHART_PRESET_LABELS,
  DASHBOARD_ENDPOINTS,
  ERROR_CODES,
  type CompanyChartRow,
  type TrainingChartRow,
} from '@sertifikasi/shared-contracts';
import { formatDate, logLoadFailure, useFetch } from '@sertifikasi/shared-ui';
import { t } from '../../i18n/id';
import { chartParams, defaultChartSettings, type ChartKind, type ChartSettings } from './chartSettings';

// apexcharts comes with the chart only, after the rest of the dashboard has shown; the settings
// modal (and its date pickers) when it is first opened.
const LineChart = lazy(() => import('./LineChart'));
const ChartSettingsDialog = lazy(() =>
  import('./ChartSettingsDialog').then((m) => ({ default: m.ChartSettingsDialog })),
);

const CHART_HEIGHT = 300;

const TEXT: Record<ChartKind, { title: string; series: string; endpoint: string }> = {
  company: {
    title: t.dashboard.companyChart,
    series: t.dashboard.seriesCompany,
    endpoint: DASHBOARD_ENDPOINTS.companyChart,
  },
  training: {
    title: t.dashboard.trainingChart,
    series: t.dashboard.seriesTraining,
    endpoint: DASHBOARD_ENDPOINTS.trainingChart,
  },
};

function ChartLoading() {
  return (
    <Stack
      role="status"
      spacing={1}
      sx={{ height: CHART_HEIGHT, alignItems: 'center', justifyContent: 'center', color: 'text.secondary' }}
    >
      <CircularProgress size={28} />
      <Typography variant="body2">{t.dashboard.chartLoading}</Typography>
    </Stack>
  );
}

/** What the chart shows now: '1 minggu terakhir · Harian', or the custom dates. */
function summary(s: ChartSettings): string {
  const period =
    s.date_type === 'custom' && s.start && s.end
      ? `${formatDate(s.start)} - ${formatDate(s.end)}`
      : CHART_PRESET_LABELS[s.date_type];
  return t.dashboard.chartSummary(period, CHART_GRANULARITY_LABELS[s.chart]);
}

/**
 * One of the dashboard's two line charts with its settings modal (opened from the search icon).
 * The chart shows only once its data has loaded; 'Terapkan' asks again and closes the modal.
 */
export function ChartCard({ kind, companyId }: { kind: ChartKind; companyId: string | null }) {
  const text = TEXT[kind];
  const [settings, setSettings] = useState<ChartSettings>(defaultChartSettings);
  const [open, setOpen] = useState(false);
  const [opening, setOpening] = useState(0);
  const path = companyId ? `${text.endpoint}/${encodeURIComponent(companyId)}` : null;
  const answer = useFetch<(CompanyChartRow | TrainingChartRow)[]>(path, {
    searchParams: chartParams(kind, settings),
    onError: logLoadFailure,
  });
  const rows = answer.data ?? [];
  const buckets = rows.map((r) => ('date_f' in r ? r.date_f : r.date));
  const totals = rows.map((r) => r.total);
  const titleId = `chart-title-${kind}`;

  return (
    <Paper variant="outlined" component="section" aria-labelledby={titleId} sx={{ p: 2, minWidth: 0 }}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start', justifyContent: 'space-between' }}>
        <Box sx={{ minWidth: 0 }}>
          <Typography id={titleId} variant="h6" component="h2">
            {text.title}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {summary(settings)}
          </Typography>
        </Box>
        <Tooltip title={t.dashboard.chartSettings(text.title)}>
          <IconButton
            aria-label={t.dashboard.chartSettings(text.title)}
            onClick={() => {
              setOpening((n) => n + 1);
              setOpen(true);
            }}
          >
            <SearchIcon />
          </IconButton>
        </Tooltip>
      </Stack>
      <Box sx={{ mt: 1, minHeight: CHART_HEIGHT }}>
        {answer.loading || !path ? (
          <ChartLoading />
        ) : answer.failure ? (
          <Typography
            color="text.secondary"
            role="status"
            sx={{ height: CHART_HEIGHT, display: 'grid', placeItems: 'center', textAlign: 'center' }}
          >
            {answer.failure.error?.message && answer.failure.error.code === ERROR_CODES.validation
              ? answer.failure.error.message
              : t.dashboard.chartFailed}
          </Typography>
        ) : (
          <Suspense fallback={<ChartLoading />}>
            <LineChart
              name={text.series}
              label={text.title}
              buckets={buckets}
              totals={totals}
              granularity={settings.chart}
            />
          </Suspense>
        )}
      </Box>
      {opening > 0 && (
        <Suspense fallback={null}>
          <ChartSettingsDialog
            key={opening}
            open={open}
            kind={kind}
            title={text.title}
            settings={settings}
            onClose={() => setOpen(false)}
            onApply={(next) => {
              setOpen(false);
              setSettings(next);
              // The same settings again still ask again ("Apply reloads the chart").
              answer.reload();
            }}
          />
        </Suspense>
      )}
    </Paper>
  );
}
