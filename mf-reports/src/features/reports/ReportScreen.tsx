import { useMemo, useState, type ComponentType, type ReactNode } from 'react';
import { Form, Formik, type FormikValues } from 'formik';
import type { AnyObjectSchema } from 'yup';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import FileDownloadIcon from '@mui/icons-material/FileDownloadOutlined';
import SearchIcon from '@mui/icons-material/Search';
import {
  ALL,
  EFFECTIVE_STATUS_LABELS,
  REPORTS,
  reportColumns,
  type EffectiveStatus,
  type ReportColumn,
  type ReportKind,
  type ReportLookups,
} from '@sertifikasi/shared-contracts';
import { useAuth } from '@sertifikasi/shared-auth';
import {
  formatDate,
  formatNumber,
  ListPagination,
  ListToolbar,
  orDash,
  ResourceTable,
  logLoadFailure,
  useFetch,
  useListData,
  useListState,
  type ResourceColumn,
} from '@sertifikasi/shared-ui';
import { DatePickerProvider } from '@sertifikasi/shared-ui/date';
import { t } from '../../i18n/id';
import { ExportPanel } from './ExportPanel';
import { useExport } from './useExport';

/** What a report's filter fields receive. */
export interface ReportFiltersProps {
  /** `select/report/{company_id}`: certification types, accreditation bodies, clients (null while loading). */
  lookups: ReportLookups | null;
  /** The header says ALL: choices name their company. */
  all: boolean;
}

/** One report screen, described (the behaviour is ReportScreen's). */
export interface ReportConfig<Row extends { id: string }, V extends FormikValues> {
  kind: ReportKind;
  /** The contract's columns (the workbook has the same headers). */
  columns: readonly ReportColumn<Extract<keyof Row, string>>[];
  /** Cells shown otherwise than by their kind (a name with its logo, ...). */
  cells?: Partial<Record<keyof Row, (row: Row) => ReactNode>>;
  /** The filter form's empty values. */
  initialValues: () => V;
  /** Checks before searching or exporting (e.g. a date range's order). */
  validationSchema?: AnyObjectSchema;
  /** The filter fields (formik inputs named like the values). */
  Filters: ComponentType<ReportFiltersProps>;
  /** The filters choose from `select/report/{company_id}` (false: it is not asked for). */
  usesLookups?: boolean;
  /** The filters as the API reads them (docs/rules.md#calls and #wire-formats); empty ones may be ''. */
  toParams: (values: V) => Record<string, string>;
}

/** A cell by the column's kind: text or '-', dates DD MMMM YYYY, statuses by their label, numbers id-ID. */
function defaultCell<Row>(column: ReportColumn<Extract<keyof Row, string>>): (row: Row) => ReactNode {
  return (row) => {
    const value = row[column.key] as unknown;
    if (column.kind === 'date') return formatDate(value as string | null);
    if (column.kind === 'number') return formatNumber(value as number | null);
    if (column.kind === 'status')
      return typeof value === 'string' && value in EFFECTIVE_STATUS_LABELS
        ? EFFECTIVE_STATUS_LABELS[value as EffectiveStatus]
        : orDash(value as string | null);
    return orDash(value as string | number | null);
  };
}

/** The parameters that are set (an empty filter is no filter). */
function filled(params: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(params).filter(([, v]) => v !== ''));
}

interface BodyProps<Row extends { id: string }, V extends FormikValues> {
  config: ReportConfig<Row, V>;
  companyId: string;
}

function ReportBody<Row extends { id: string }, V extends FormikValues>({
  config,
  companyId,
}: BodyProps<Row, V>) {
  const report = REPORTS[config.kind];
  const all = companyId === ALL;
  const path = `${report.endpoint}/${encodeURIComponent(companyId)}`;
  const list = useListState({ resetKey: companyId });
  const initialParams = () => filled(config.toParams(config.initialValues()));
  const [applied, setApplied] = useState(initialParams);
  // Another company in the header: its filters start empty (their choices are that company's); the
  // list goes back to page 1 (useListState's resetKey).
  const [seenCompany, setSeenCompany] = useState(companyId);
  if (seenCompany !== companyId) {
    setSeenCompany(companyId);
    setApplied(initialParams());
  }
  const { search = '', ...filters } = applied;
  const data = useListData<Row>(
    path,
    { page: list.page, pageSize: list.pageSize, search, sort: null },
    { filters: { ...filters, type: 'table' } },
  );
  // A failed look-up is logged only: the filters then offer no choices.
  const lookups = useFetch<ReportLookups>(
    config.usesLookups === false ? null : `select/report/${encodeURIComponent(companyId)}`,
    { onError: logLoadFailure },
  ).data;
  const exporter = useExport();
  const searching = data.loading;
  const exporting = exporter.progress !== null;
  const busy = searching || exporting;

  const columns = useMemo<ResourceColumn<Row>[]>(
    () =>
      reportColumns(config.columns, { all, screen: true }).map((column) => ({
        key: column.key,
        header: column.header,
        render: config.cells?.[column.key] ?? defaultCell<Row>(column),
      })),
    [config, all],
  );
  const rows = data.data?.data ?? [];

  const exportFile = (values: V) => {
    const params = new URLSearchParams({ ...filled(config.toParams(values)), type: 'export' });
    void exporter.start(path, params, report.fileName);
  };

  return (
    <Paper variant="outlined" sx={{ overflow: 'hidden' }}>
      <ListToolbar title={report.title} pageSize={{ value: list.pageSize, onChange: list.setPageSize }} />
      <Formik<V>
        key={companyId}
        initialValues={config.initialValues()}
        validationSchema={config.validationSchema}
        onSubmit={(values) => {
          setApplied(filled(config.toParams(values)));
          list.setPage(1);
          data.reload();
        }}
      >
        {({ validateForm, setFieldTouched, values }) => (
          <Form noValidate aria-label={t.report.filters}>
            <Stack spacing={2} sx={{ px: 2, pb: 2 }}>
              <DatePickerProvider>
                <Box
                  sx={{
                    display: 'grid',
                    gap: 2,
                    // 240 px: two columns fit from 600 px up, which a date range spans (DateRangeInput).
                    gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 240px), 1fr))',
                    alignItems: 'start',
                  }}
                >
                  <config.Filters lookups={lookups} all={all} />
                </Box>
              </DatePickerProvider>
              <Stack direction="row" spacing={1.5} useFlexGap sx={{ flexWrap: 'wrap' }}>
                <Button
                  type="submit"
                  variant="contained"
                  disabled={busy}
                  startIcon={searching ? <CircularProgress size={16} color="inherit" /> : <SearchIcon />}
                >
                  {searching ? t.report.searching : t.report.search}
                </Button>
                <Button
                  variant="outlined"
                  color="success"
                  disabled={busy}
                  startIcon={
                    exporting ? <CircularProgress size={16} color="inherit" /> : <FileDownloadIcon />
                  }
                  onClick={() => {
                    void validateForm().then((errors) => {
                      if (Object.keys(errors).length === 0) exportFile(values);
                      else for (const key of Object.keys(errors)) void setFieldTouched(key, true, false);
                    });
                  }}
                >
                  {exporting ? t.report.exporting : t.report.export}
                </Button>
              </Stack>
            </Stack>
          </Form>
        )}
      </Formik>
      {exporter.progress && (
        <Box sx={{ px: 2, pb: 2 }}>
          <ExportPanel progress={exporter.progress} onCancel={exporter.cancel} />
        </Box>
      )}
      <ResourceTable<Row> columns={columns} rows={rows} loading={data.loading} label={report.title} />
      {data.data && rows.length > 0 && (
        <ListPagination
          current={data.data.current_page}
          last={data.data.last_page}
          from={data.data.from}
          to={data.data.to}
          total={data.data.total}
          capped={data.data.total_capped}
          onPage={list.setPage}
          disabled={busy}
        />
      )}
    </Paper>
  );
}

/**
 * A report screen (docs/rules.md#dashboard-and-reports): the filters, 'Cari Data' ('Mencari Data...') and
 * 'Export Excel' ('Export Data...'), both disabled while either runs; the paginated table with the
 * contract's columns (Nama Perusahaan only for ALL), the loading and empty boxes; the export's
 * progress with 'Batalkan'. Everything follows the header's company.
 */
export function ReportScreen<Row extends { id: string }, V extends FormikValues>({
  config,
}: {
  config: ReportConfig<Row, V>;
}) {
  const companyId = useAuth((s) => s.company_id);
  if (!companyId) return <Alert severity="info">{t.report.noCompany}</Alert>;
  return <ReportBody config={config} companyId={companyId} />;
}
