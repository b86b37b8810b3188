import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import {
  type ImportJob,
  IMPORT_JOB_STATE_LABELS,
  IMPORT_KIND_LABELS,
  IMPORT_MESSAGES,
  type ListResponse,
} from '@sertifikasi/shared-contracts';
import { notifyApiError } from '@sertifikasi/shared-auth';
import { formatDateTime, formatNumber, useFetch } from '@sertifikasi/shared-ui';
import { t } from '../../i18n/id';

const PER_PAGE = 10;

/**
 * 'Riwayat Impor': the company's recent imports, newest first (GET /api/import/jobs), ten a page:
 * when, who, the file, what, the state (a failed one with why) and the rows done of the file's
 * rows. `version` changes when an import ends, and the list is read again.
 */
export function ImportHistory({ companyId, version }: { companyId: string; version: string }) {
  const [page, setPage] = useState(1);
  const answer = useFetch<ListResponse<ImportJob>>('import/jobs', {
    searchParams: { company_id: companyId, page, paginate: PER_PAGE },
    askAgainOn: version,
    keepData: true,
    onError: notifyApiError,
  }).data;

  if (!answer) return null;
  if (!answer.data.length) return <Typography variant="body2">{IMPORT_MESSAGES.historyEmpty}</Typography>;
  return (
    <Box>
      <TableContainer sx={{ overflowX: 'auto' }}>
        <Table size="small" aria-label={IMPORT_MESSAGES.history}>
          <TableHead>
            <TableRow>
              <TableCell>{t.import.when}</TableCell>
              <TableCell>{t.import.by}</TableCell>
              <TableCell>{t.import.file}</TableCell>
              <TableCell>{t.import.kind}</TableCell>
              <TableCell>{t.import.state}</TableCell>
              <TableCell align="right">{t.import.row}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {answer.data.map((job) => (
              <TableRow key={job.id}>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(job.created_at)}</TableCell>
                <TableCell>{job.created_by ?? '-'}</TableCell>
                {/* Widths that keep a row a few lines tall on a phone (the table scrolls sideways in its box). */}
                <TableCell sx={{ minWidth: 140, maxWidth: 200, overflowWrap: 'anywhere' }}>
                  {job.file_name}
                </TableCell>
                <TableCell>{IMPORT_KIND_LABELS[job.kind]}</TableCell>
                <TableCell sx={{ minWidth: 200 }}>
                  {IMPORT_JOB_STATE_LABELS[job.state]}
                  {job.state === 'failed' && job.error && (
                    <Typography variant="caption" color="error" sx={{ display: 'block', maxWidth: 260 }}>
                      {job.error.message}
                    </Typography>
                  )}
                </TableCell>
                <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                  {formatNumber(job.done)} / {formatNumber(job.total)}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      {answer.last_page > 1 && (
        <Stack direction="row" spacing={1} sx={{ mt: 1, justifyContent: 'flex-end' }}>
          <Button size="small" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            {t.import.newer}
          </Button>
          <Button size="small" disabled={page >= answer.last_page} onClick={() => setPage(page + 1)}>
            {t.import.older}
          </Button>
        </Stack>
      )}
    </Box>
  );
}
