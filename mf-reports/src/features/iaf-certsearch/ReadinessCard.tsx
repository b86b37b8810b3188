import { useMemo, useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import FileDownloadIcon from '@mui/icons-material/FileDownloadOutlined';
import {
  IAF_EXPORT_FILE,
  IAF_MISSING_LABELS,
  routeLink,
  type IafIncomplete,
  type IafMissingField,
  type IafReadiness,
} from '@sertifikasi/shared-contracts';
import { useCan } from '@sertifikasi/shared-auth';
import {
  formatNumber,
  ListPagination,
  orDash,
  ResourceTable,
  type FetchState,
  type ResourceColumn,
} from '@sertifikasi/shared-ui';
import { t } from '../../i18n/id';
import { ExportPanel } from '../reports/ExportPanel';
import { useExport } from '../reports/useExport';

/** Fixed on 'Akreditasi' (the body's acronym); everything else on the client's detail page. */
const ON_ACCREDITED: readonly IafMissingField[] = ['accreditation_body_acronym'];

type Row = IafIncomplete & { id: string };

/** Incomplete schemes shown a page at a time (the readiness answers all of them). */
export const INCOMPLETE_PAGE = 20;

/** Where an incomplete scheme is fixed: the client's detail (its schemes too), or 'Akreditasi'. */
function FixLinks({ row }: { row: Row }) {
  const canClient = useCan('company-certificate');
  const canAccredited = useCan('accredited');
  const onClient = row.missing.some((m) => !ON_ACCREDITED.includes(m));
  const onAccredited = row.missing.some((m) => ON_ACCREDITED.includes(m));
  return (
    <Stack spacing={0.5}>
      {onClient && canClient && (
        <Link
          component={RouterLink}
          to={routeLink('/company-certificate/:id', { id: row.client_id })}
          aria-label={t.iaf.fixClient(row.client_name)}
        >
          {t.iaf.fix}
        </Link>
      )}
      {onAccredited && canAccredited && (
        <Link component={RouterLink} to={routeLink('/accredited', {})}>
          {t.iaf.fixAcronym}
        </Link>
      )}
    </Stack>
  );
}

const columns: ResourceColumn<Row>[] = [
  { header: t.iaf.client, render: (row) => row.client_name, width: '30%' },
  { header: t.iaf.certNumber, render: (row) => orDash(row.cert_number) },
  {
    header: t.iaf.missing,
    render: (row) => (
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5, minWidth: 200 }}>
        {row.missing.map((m) => (
          <Chip key={m} size="small" color="warning" variant="outlined" label={IAF_MISSING_LABELS[m]} />
        ))}
      </Box>
    ),
  },
  { header: t.iaf.fix, render: (row) => <FixLinks row={row} /> },
];

/**
 * 'Kesiapan Data': how many of the company's accredited schemes are ready, 'Unduh Excel' (the
 * upload workbook, through the reports' export: progress and 'Batalkan'), and the incomplete
 * schemes, INCOMPLETE_PAGE at a time, each with what it misses and a link to where it is fixed.
 */
export function ReadinessCard({
  companyId,
  readiness,
}: {
  companyId: string;
  readiness: FetchState<IafReadiness>;
}) {
  const exporter = useExport();
  const exporting = exporter.progress !== null;
  const data = readiness.data;
  const rows = useMemo<Row[]>(() => (data?.incomplete ?? []).map((r) => ({ ...r, id: r.scheme_id })), [data]);
  const [page, setPage] = useState(1);
  const last = Math.max(1, Math.ceil(rows.length / INCOMPLETE_PAGE));
  const current = Math.min(page, last);
  const shown = rows.slice((current - 1) * INCOMPLETE_PAGE, current * INCOMPLETE_PAGE);
  const download = () =>
    void exporter.start(
      'iaf-certsearch/export',
      new URLSearchParams({ company_id: companyId }),
      IAF_EXPORT_FILE,
    );
  return (
    <Paper component="section" variant="outlined" aria-labelledby="iaf-readiness" sx={{ overflow: 'hidden' }}>
      <Stack spacing={2} sx={{ p: 2 }}>
        <Stack
          direction={{ xs: 'column', sm: 'row' }}
          spacing={2}
          sx={{ justifyContent: 'space-between', alignItems: { sm: 'center' } }}
        >
          <Box>
            <Typography id="iaf-readiness" variant="h6" component="h2">
              {t.iaf.readiness}
            </Typography>
            <Typography variant="body1" aria-live="polite">
              {data ? (
                t.iaf.readyOf(formatNumber(data.ready), formatNumber(data.total))
              ) : readiness.failure ? (
                ''
              ) : (
                <Skeleton width={220} />
              )}
            </Typography>
          </Box>
          <Button
            variant="outlined"
            color="success"
            disabled={exporting || !data || data.ready === 0}
            startIcon={exporting ? <CircularProgress size={16} color="inherit" /> : <FileDownloadIcon />}
            onClick={download}
            sx={{ alignSelf: { xs: 'flex-start', sm: 'center' } }}
          >
            {exporting ? t.iaf.downloading : t.iaf.download}
          </Button>
        </Stack>
        {exporter.progress && <ExportPanel progress={exporter.progress} onCancel={exporter.cancel} />}
        {readiness.failure && (
          <Alert severity="error" role="alert">
            {t.iaf.readinessFailed}
          </Alert>
        )}
        {data && data.total === 0 && <Alert severity="info">{t.iaf.noneToSend}</Alert>}
        {data && data.total > 0 && rows.length === 0 && <Alert severity="success">{t.iaf.allReady}</Alert>}
        {rows.length > 0 && (
          <Alert severity="warning">{t.iaf.incompleteCount(formatNumber(rows.length))}</Alert>
        )}
      </Stack>
      {rows.length > 0 && (
        <>
          <ResourceTable<Row> columns={columns} rows={shown} loading={false} label={t.iaf.incompleteTable} />
          {last > 1 && (
            <ListPagination
              current={current}
              last={last}
              from={(current - 1) * INCOMPLETE_PAGE + 1}
              to={(current - 1) * INCOMPLETE_PAGE + shown.length}
              total={rows.length}
              onPage={setPage}
            />
          )}
        </>
      )}
    </Paper>
  );
}
