import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import * as yup from 'yup';
import {
  joinListParam,
  REPORTS,
  SCHEME_REPORT_COLUMNS,
  type SchemeReportRow,
} from '@sertifikasi/shared-contracts';
import { NameWithImage, orDash, StatusChip, UI_TEXT } from '@sertifikasi/shared-ui';
import {
  DateRangeInput,
  emptyRange,
  rangeReversed,
  type DateRangeValue,
} from '../../components/DateRangeInput';
import { t } from '../../i18n/id';
import { LookupFilter, rangeParam, SearchFilter, StatusFilter } from './filters';
import type { ReportConfig, ReportFiltersProps } from './ReportScreen';

interface Values {
  search: string;
  issue_date: DateRangeValue;
  expired_date: DateRangeValue;
  status: string[];
  client: string[];
  certification: string[];
  accredited: string[];
}

const labels = REPORTS.scheme.filters;

function Filters({ lookups, all }: ReportFiltersProps) {
  return (
    <>
      <SearchFilter label={labels.search} />
      <DateRangeInput name="issue_date" label={labels.issue_date} />
      <DateRangeInput name="expired_date" label={labels.expired_date} />
      <StatusFilter label={labels.status} />
      <LookupFilter
        name="client"
        label={labels.client}
        source="company_certificate"
        lookups={lookups}
        all={all}
      />
      <LookupFilter
        name="certification"
        label={labels.certification}
        source="certification"
        lookups={lookups}
        all={all}
      />
      <LookupFilter
        name="accredited"
        label={labels.accredited}
        source="accredited"
        lookups={lookups}
        all={all}
      />
    </>
  );
}

const orderedRange = yup
  .mixed<DateRangeValue>()
  .test('order', t.report.rangeOrder, (range) => !range || !rangeReversed(range));

/** Laporan Skema Sertifikasi Perusahaan: schemes, with every filter of docs/rules.md#dashboard-and-reports. */
export const schemeReport: ReportConfig<SchemeReportRow, Values> = {
  kind: 'scheme',
  columns: SCHEME_REPORT_COLUMNS,
  cells: {
    client_name: (row) => (
      <Stack spacing={0.5}>
        <NameWithImage name={row.client_name} image={row.client_logo} />
        <Typography variant="caption" color="text.secondary">
          {t.report.clientNumber} {orDash(row.client_certificate_number)}
        </Typography>
      </Stack>
    ),
    effective_status: (row) => <StatusChip status={row.effective_status} />,
    // The accreditation only when the scheme is accredited (is_accredited 'true').
    accredited: (row) => (row.is_accredited === 'true' ? orDash(row.accredited) : UI_TEXT.dash),
  },
  initialValues: () => ({
    search: '',
    issue_date: emptyRange(),
    expired_date: emptyRange(),
    status: [],
    client: [],
    certification: [],
    accredited: [],
  }),
  validationSchema: yup.object({ issue_date: orderedRange, expired_date: orderedRange }),
  Filters,
  toParams: (v) => ({
    search: v.search.trim(),
    issue_date: rangeParam(v.issue_date),
    expired_date: rangeParam(v.expired_date),
    status: joinListParam(v.status),
    client: joinListParam(v.client),
    certification: joinListParam(v.certification),
    accredited: joinListParam(v.accredited),
  }),
};
