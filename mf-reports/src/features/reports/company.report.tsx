import {
  COMPANY_CERTIFICATION_REPORT_COLUMNS,
  joinListParam,
  REPORTS,
  type CompanyCertificationReportRow,
} from '@sertifikasi/shared-contracts';
import { NameWithImage } from '@sertifikasi/shared-ui';
import { LookupFilter, SearchFilter } from './filters';
import type { ReportConfig, ReportFiltersProps } from './ReportScreen';

interface Values {
  search: string;
  certification: string[];
  accredited: string[];
}

const labels = REPORTS.company.filters;

function Filters({ lookups, all }: ReportFiltersProps) {
  return (
    <>
      <SearchFilter label={labels.search} />
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

/** Laporan Sertifikasi Perusahaan: clients, filtered by text, certification types and accreditation bodies. */
export const companyReport: ReportConfig<CompanyCertificationReportRow, Values> = {
  kind: 'company',
  columns: COMPANY_CERTIFICATION_REPORT_COLUMNS,
  cells: { name: (row) => <NameWithImage name={row.name} image={row.logo} /> },
  initialValues: () => ({ search: '', certification: [], accredited: [] }),
  Filters,
  toParams: (v) => ({
    search: v.search.trim(),
    certification: joinListParam(v.certification),
    accredited: joinListParam(v.accredited),
  }),
};
