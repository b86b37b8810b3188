import { type ChangeEvent, useId, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import DownloadIcon from '@mui/icons-material/Download';
import HistoryIcon from '@mui/icons-material/History';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import {
  ALL,
  type ImportCellError,
  type ImportJob,
  IMPORT_MESSAGES,
  IMPORT_TEMPLATE_FILES,
  type ImportKind,
  type ImportMode,
  type ImportResult,
  MESSAGES,
} from '@sertifikasi/shared-contracts';
import { downloadFile, notifyApiError, useAuth } from '@sertifikasi/shared-auth';
import { formatNumber } from '@sertifikasi/shared-ui';
import { t } from '../../i18n/id';
import { ImportHistory } from './ImportHistory';
import { uploadForm } from './upload';
import { jobEnded } from './useImportJob';

export interface ImportDialogProps {
  kind: ImportKind;
  /** What is imported, for the title ('Sertifikasi Perusahaan'). */
  label: string;
  open: boolean;
  onClose: () => void;
  /** The import job being followed (useImportJob), kept while the dialog is closed. */
  job: ImportJob | null;
  /** An apply was accepted: follow its job. */
  onJob: (job: ImportJob) => void;
  /** Stop showing an ended job (the dialog closed, or a new file). */
  onForget: () => void;
}

type Outcome =
  | { type: 'result'; result: ImportResult }
  | { type: 'invalid'; message: string; rows: ImportCellError[] }
  | { type: 'error'; message: string };

const n = (value: number) => formatNumber(value);

function Counts({ result }: { result: ImportResult }) {
  const lines: [string, number, number, number][] =
    typeof result.created === 'number'
      ? [[t.import.certificates, result.created, result.updated as number, result.unchanged as number]]
      : [
          [
            t.import.clients,
            result.created.clients,
            (result.updated as { clients: number }).clients,
            (result.unchanged as { clients: number }).clients,
          ],
          [
            t.import.schemes,
            result.created.schemes,
            (result.updated as { schemes: number }).schemes,
            (result.unchanged as { schemes: number }).schemes,
          ],
        ];
  return (
    <Alert severity="success" role="status">
      <Typography variant="body2" sx={{ fontWeight: 600 }}>
        {result.mode === 'apply' ? t.import.applied : t.import.checked} {t.import.rows(n(result.rows))}
      </Typography>
      {lines.map(([what, created, updated, unchanged]) => (
        <Typography key={what} variant="body2">
          {what}: {t.import.counts(n(created), n(updated), n(unchanged))}
        </Typography>
      ))}
    </Alert>
  );
}

function InvalidCells({ rows }: { rows: ImportCellError[] }) {
  return (
    <TableContainer sx={{ maxHeight: 320, overflowX: 'auto' }}>
      <Table size="small" stickyHeader aria-label={t.import.table}>
        <TableHead>
          <TableRow>
            <TableCell>{t.import.row}</TableCell>
            <TableCell>{t.import.column}</TableCell>
            <TableCell>{t.import.value}</TableCell>
            <TableCell>{t.import.message}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((r, i) => (
            <TableRow key={`${r.row}-${r.column}-${i}`}>
              <TableCell>{r.row}</TableCell>
              <TableCell>{r.column}</TableCell>
              <TableCell sx={{ maxWidth: 160, overflowWrap: 'anywhere' }}>{r.value}</TableCell>
              <TableCell>{r.message}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

/** Where a running import is: 'Mengimpor 1.200 dari 5.000 baris', as a bar. */
function JobProgress({ job, id }: { job: ImportJob; id: string }) {
  const value = job.total ? Math.round((job.done / job.total) * 100) : 0;
  return (
    <Box>
      <Typography variant="body2" id={id}>
        {job.state === 'queued' ? IMPORT_MESSAGES.queued : IMPORT_MESSAGES.progress(job.done, job.total)}
      </Typography>
      <LinearProgress variant="determinate" value={value} aria-labelledby={id} />
      <Typography variant="caption" color="text.secondary">
        {t.import.closeWhileRunning}
      </Typography>
    </Box>
  );
}

/**
 * 'Impor Excel' (docs/rules.md#import): 'Unduh Template', choose a file, 'Periksa File' (the
 * counts, or the table of invalid cells: Baris, Kolom, Nilai, Pesan), 'Impor Data' with upload
 * progress, then the job's progress ('Mengimpor 1.200 dari 5.000 baris'; the dialog may be closed
 * meanwhile) and its outcome; 'Riwayat Impor' lists the company's recent imports. With ALL selected
 * in the header it asks for the company first.
 */
export function ImportDialog({ kind, label, open, onClose, job, onJob, onForget }: ImportDialogProps) {
  const theme = useTheme();
  const small = useMediaQuery(theme.breakpoints.down('sm'));
  const headerCompany = useAuth((s) => s.company_id);
  const companies = useAuth((s) => s.companies);
  const askCompany = headerCompany === ALL;
  const [chosenCompany, setChosenCompany] = useState('');
  const companyId = askCompany ? chosenCompany : headerCompany;
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [history, setHistory] = useState(false);
  const inputId = useId();
  const busy = progress !== null;
  const running = !!job && !jobEnded(job);

  const reset = () => {
    setFile(null);
    setOutcome(null);
    setProgress(null);
    if (jobEnded(job)) onForget();
  };
  const close = () => {
    if (busy) return;
    reset();
    onClose();
  };

  const onFile = (event: ChangeEvent<HTMLInputElement>) => {
    setFile(event.target.files?.[0] ?? null);
    setOutcome(null);
    if (jobEnded(job)) onForget();
    event.target.value = '';
  };

  const template = () => {
    downloadFile(`import/${kind}/template`, { filename: IMPORT_TEMPLATE_FILES[kind] }).catch(notifyApiError);
  };

  const send = async (mode: ImportMode) => {
    if (!file || !companyId) return;
    const form = new FormData();
    form.append('file_name', file.name);
    form.append('file', file, file.name);
    setOutcome(null);
    if (jobEnded(job)) onForget();
    setProgress(0);
    const answer = await uploadForm(
      `import/${kind}/${encodeURIComponent(companyId)}?mode=${mode}`,
      form,
      setProgress,
    );
    setProgress(null);
    const body = (answer.body ?? {}) as Partial<{ message: string; rows: ImportCellError[] }>;
    if (answer.status === 202 && mode === 'apply') {
      onJob((answer.body as { job: ImportJob }).job);
    } else if (answer.status === 200) {
      setOutcome({ type: 'result', result: answer.body as ImportResult });
    } else if (answer.status === 422 && Array.isArray(body.rows)) {
      setOutcome({ type: 'invalid', message: t.import.invalid(n(body.rows.length)), rows: body.rows });
    } else if (answer.status >= 400 && answer.status < 500 && typeof body.message === 'string') {
      setOutcome({ type: 'error', message: body.message });
    } else {
      setOutcome({ type: 'error', message: MESSAGES.systemError });
    }
  };

  const ready = !!file && !!companyId && !busy && !running;
  return (
    <Dialog open={open} onClose={close} fullWidth maxWidth="md" fullScreen={small}>
      <DialogTitle>{t.import.title(label)}</DialogTitle>
      <DialogContent dividers>
        <Stack spacing={2}>
          <Box>
            <Button variant="outlined" startIcon={<DownloadIcon />} onClick={template}>
              {t.import.template}
            </Button>
          </Box>
          {askCompany && (
            <TextField
              select
              size="small"
              label={t.import.company}
              helperText={t.import.companyHint}
              value={chosenCompany}
              onChange={(e) => {
                setChosenCompany(e.target.value);
                setOutcome(null);
              }}
              slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
            >
              <option value="">-</option>
              {companies.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </TextField>
          )}
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ alignItems: { sm: 'center' } }}>
            <Button component="label" htmlFor={inputId} variant="outlined" startIcon={<UploadFileIcon />}>
              {t.import.choose}
              <input
                id={inputId}
                type="file"
                hidden
                accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
                onChange={onFile}
                disabled={busy}
              />
            </Button>
            <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
              {file ? t.import.chosen(file.name) : t.import.noFile}
            </Typography>
          </Stack>
          {progress !== null && (
            <Box>
              <Typography variant="body2" id={`${inputId}-progress`}>
                {progress < 1 ? t.import.uploading : t.import.working}
              </Typography>
              <LinearProgress
                variant={progress < 1 ? 'determinate' : 'indeterminate'}
                value={Math.round(progress * 100)}
                aria-labelledby={`${inputId}-progress`}
              />
            </Box>
          )}
          {job && running && <JobProgress job={job} id={`${inputId}-job`} />}
          {job?.state === 'done' && job.result && <Counts result={job.result} />}
          {job?.state === 'failed' && (
            <>
              <Alert severity="error" role="alert">
                {job.error?.message ?? IMPORT_MESSAGES.failed}
              </Alert>
              {!!job.error?.rows?.length && <InvalidCells rows={job.error.rows} />}
            </>
          )}
          {outcome?.type === 'result' && <Counts result={outcome.result} />}
          {outcome?.type === 'error' && (
            <Alert severity="error" role="alert">
              {outcome.message}
            </Alert>
          )}
          {outcome?.type === 'invalid' && (
            <>
              <Alert severity="error" role="alert">
                {outcome.message}
              </Alert>
              <InvalidCells rows={outcome.rows} />
            </>
          )}
          {companyId && (
            <Box>
              <Button
                size="small"
                startIcon={<HistoryIcon />}
                aria-expanded={history}
                onClick={() => setHistory(!history)}
              >
                {IMPORT_MESSAGES.history}
              </Button>
              {history && (
                <ImportHistory companyId={companyId} version={job ? `${job.id}:${job.state}` : ''} />
              )}
            </Box>
          )}
        </Stack>
      </DialogContent>
      <DialogActions sx={{ flexWrap: 'wrap', gap: 1 }}>
        <Button onClick={close} disabled={busy}>
          {t.import.close}
        </Button>
        <Button variant="outlined" onClick={() => void send('check')} disabled={!ready}>
          {t.import.check}
        </Button>
        <Button variant="contained" onClick={() => void send('apply')} disabled={!ready}>
          {t.import.apply}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
