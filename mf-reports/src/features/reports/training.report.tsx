import * as yup from 'yup';
import { REPORTS, TRAINING_REPORT_COLUMNS, type TrainingReportRow } from '@sertifikasi/shared-contracts';
import {
  DateRangeInput,
  emptyRange,
  rangeReversed,
  type DateRangeValue,
} from '../../components/DateRangeInput';
import { t } from '../../i18n/id';
import { rangeParam, SearchFilter } from './filters';
import type { ReportConfig } from './ReportScreen';

interface Values {
  search: string;
  issue_date: DateRangeValue;
}

const labels = REPORTS.training.filters;

function Filters() {
  return (
    <>
      <SearchFilter label={labels.search} />
      <DateRangeInput name="issue_date" label={labels.issue_date} />
    </>
  );
}

/** Laporan Sertifikasi Pelatihan: training certificates, by text and certificate date. */
export const trainingReport: ReportConfig<TrainingReportRow, Values> = {
  kind: 'training',
  columns: TRAINING_REPORT_COLUMNS,
  initialValues: () => ({ search: '', issue_date: emptyRange() }),
  validationSchema: yup.object({
    issue_date: yup
      .mixed<DateRangeValue>()
      .test('order', t.report.rangeOrder, (range) => !range || !rangeReversed(range)),
  }),
  Filters,
  usesLookups: false,
  toParams: (v) => ({ search: v.search.trim(), issue_date: rangeParam(v.issue_date) }),
};
