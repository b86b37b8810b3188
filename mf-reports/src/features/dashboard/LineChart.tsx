/**
 * The dashboard's line chart: the only file that imports apexcharts. It is loaded lazily (the
 * dashboard's cards, bars and list show first), and only the line chart type of apexcharts comes
 * with it (react-apexcharts' `core` entry with `apexcharts/line`, not every chart type).
 */
import Chart from 'react-apexcharts/core';
import 'apexcharts/line';
import type { ApexOptions } from 'apexcharts';
import { useTheme } from '@mui/material/styles';
import type { ChartGranularity } from '@sertifikasi/shared-contracts';
import { formatNumber } from '@sertifikasi/shared-ui';
import { bucketLabel } from './chartSettings';

export interface LineChartProps {
  /** The series' name (tooltip). */
  name: string;
  /** Bucket keys (`YYYY-MM-DD`, `YYYY-MM` or `YYYY`), oldest first. */
  buckets: string[];
  totals: number[];
  granularity: ChartGranularity;
  /** The chart's accessible name. */
  label: string;
}

/** Up to this maximum the y axis counts one by one (step 1); above it, about five whole-number steps. */
const STEP_ONE_UP_TO = 10;

/** Whole numbers with id-ID separators ('1.234'). */
const wholeNumber = (value: number) => formatNumber(Math.round(value));

export function chartOptions(p: LineChartProps, color: string): ApexOptions {
  const max = Math.max(0, ...p.totals);
  return {
    chart: {
      id: p.label,
      toolbar: { show: false },
      zoom: { enabled: false },
      animations: { enabled: false },
      fontFamily: 'inherit',
      parentHeightOffset: 0,
    },
    colors: [color],
    stroke: { curve: 'smooth', width: 3 },
    markers: { size: p.buckets.length <= 31 ? 4 : 0 },
    dataLabels: { enabled: false },
    grid: { strokeDashArray: 4 },
    xaxis: {
      type: 'category',
      categories: p.buckets,
      tickAmount: Math.min(p.buckets.length, 8),
      labels: {
        rotate: -45,
        hideOverlappingLabels: true,
        formatter: (v: string) => bucketLabel(v, p.granularity),
      },
      tooltip: { enabled: false },
    },
    yaxis: {
      min: 0,
      ...(max <= STEP_ONE_UP_TO
        ? { max: Math.max(max, 1), stepSize: 1 }
        : { tickAmount: 5, forceNiceScale: true }),
      decimalsInFloat: 0,
      labels: { formatter: wholeNumber },
    },
    tooltip: {
      x: {
        formatter: (_v: number, o?: { dataPointIndex?: number }) =>
          bucketLabel(p.buckets[o?.dataPointIndex ?? 0] ?? '', p.granularity, true),
      },
      y: { formatter: wholeNumber },
    },
    legend: { show: false },
  };
}

export default function LineChart(props: LineChartProps) {
  const theme = useTheme();
  return (
    <div role="img" aria-label={props.label}>
      <Chart
        type="line"
        height={300}
        series={[{ name: props.name, data: props.totals }]}
        options={chartOptions(props, theme.palette.primary.main)}
      />
    </div>
  );
}
