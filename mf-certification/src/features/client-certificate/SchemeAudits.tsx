import { useCallback, useEffect, useState } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import EditIcon from '@mui/icons-material/EditOutlined';
import FactCheckIcon from '@mui/icons-material/FactCheckOutlined';
import { SCHEME_AUDIT_KIND_LABELS, type Scheme, type SchemeAudit } from '@sertifikasi/shared-contracts';
import { api, notifyApiError, useCan } from '@sertifikasi/shared-auth';
import { ConfirmDialog, deleteRecord, formatDate } from '@sertifikasi/shared-ui';
import { usePhone } from '../../components/usePhone';
import { t } from '../../i18n/id';
import { AuditFormModal } from '../audit-schedule/AuditFormModal';

/** The audits done on a scheme (`GET company-certificate-scheme/{id}/audits`), newest first. */
function useSchemeAudits(id: string, open: boolean) {
  const [state, setState] = useState<{ audits: SchemeAudit[] | null; loading: boolean }>({
    audits: null,
    loading: false,
  });
  const [version, setVersion] = useState(0);
  useEffect(() => {
    if (!open) return;
    const controller = new AbortController();
    setState((s) => ({ audits: s.audits, loading: true }));
    api
      .get(`company-certificate-scheme/${encodeURIComponent(id)}/audits`, { signal: controller.signal })
      .json<SchemeAudit[]>()
      .then(
        (audits) => {
          if (!controller.signal.aborted) setState({ audits, loading: false });
        },
        (err: unknown) => {
          if (controller.signal.aborted) return;
          notifyApiError(err);
          setState({ audits: [], loading: false });
        },
      );
    return () => controller.abort();
  }, [id, open, version]);
  const reload = useCallback(() => setVersion((v) => v + 1), []);
  return { ...state, reload };
}

/**
 * 'Riwayat Audit': a button on a scheme's card opening the audits done on it (surveillance,
 * recertification, special; date and notes), newest first; with `company-certificate:edit` they
 * are added ('Tambah Audit'), changed and deleted there. What is due next follows on the server.
 */
export function SchemeAuditsButton({ scheme }: { scheme: Scheme }) {
  const [open, setOpen] = useState(false);
  const fullScreen = usePhone();
  const canEdit = useCan('company-certificate:edit');
  const { audits, loading, reload } = useSchemeAudits(scheme.id, open);
  const [form, setForm] = useState<{ schemeId: string; audit: SchemeAudit | null } | null>(null);
  const [deleting, setDeleting] = useState<SchemeAudit | null>(null);
  const [busy, setBusy] = useState(false);
  const title = t.audits.historyTitle(scheme.cert_number);

  const confirmDelete = async () => {
    if (!deleting) return;
    setBusy(true);
    const done = await deleteRecord(`scheme-audits/${encodeURIComponent(deleting.id)}`);
    setBusy(false);
    if (done) {
      setDeleting(null);
      reload();
    }
  };

  return (
    <>
      <Button size="small" variant="outlined" startIcon={<FactCheckIcon />} onClick={() => setOpen(true)}>
        {t.audits.history}
      </Button>
      <Dialog
        open={open}
        onClose={() => setOpen(false)}
        fullScreen={fullScreen}
        maxWidth="sm"
        fullWidth
        aria-label={title}
      >
        <DialogTitle sx={{ overflowWrap: 'anywhere' }}>{title}</DialogTitle>
        <DialogContent dividers>
          {loading && <LinearProgress aria-label={t.audits.loading} />}
          {audits && audits.length === 0 && (
            <Typography role="status" color="text.secondary">
              {t.audits.empty}
            </Typography>
          )}
          {audits && audits.length > 0 && (
            <List aria-label={t.audits.history} disablePadding>
              {audits.map((audit) => {
                const what = `${SCHEME_AUDIT_KIND_LABELS[audit.kind]} ${formatDate(audit.date)}`;
                return (
                  <ListItem
                    key={audit.id}
                    divider
                    disableGutters
                    secondaryAction={
                      canEdit && (
                        <Stack direction="row" role="group" aria-label={t.audits.actionsOf(what)}>
                          <Tooltip title={t.audits.edit}>
                            <IconButton
                              aria-label={t.audits.edit}
                              onClick={() => setForm({ schemeId: scheme.id, audit })}
                              size="small"
                            >
                              <EditIcon fontSize="small" />
                            </IconButton>
                          </Tooltip>
                          <Tooltip title={t.audits.delete}>
                            <IconButton
                              aria-label={t.audits.delete}
                              onClick={() => setDeleting(audit)}
                              size="small"
                              color="error"
                            >
                              <DeleteIcon fontSize="small" />
                            </IconButton>
                          </Tooltip>
                        </Stack>
                      )
                    }
                  >
                    <ListItemText
                      sx={{ pr: canEdit ? 9 : 0 }}
                      primary={what}
                      secondary={audit.notes}
                      slotProps={{ secondary: { sx: { whiteSpace: 'pre-line', overflowWrap: 'anywhere' } } }}
                    />
                  </ListItem>
                );
              })}
            </List>
          )}
        </DialogContent>
        <DialogActions>
          {canEdit && (
            <Button startIcon={<AddIcon />} onClick={() => setForm({ schemeId: scheme.id, audit: null })}>
              {t.audits.add}
            </Button>
          )}
          <Button onClick={() => setOpen(false)}>{t.audits.close}</Button>
        </DialogActions>
      </Dialog>
      <AuditFormModal
        target={form}
        title={form?.audit ? `${t.audits.edit} ${t.audits.entity}` : t.audits.add}
        onClose={() => setForm(null)}
        onSaved={() => {
          setForm(null);
          reload();
        }}
      />
      <ConfirmDialog
        open={deleting !== null}
        busy={busy}
        onCancel={() => setDeleting(null)}
        onConfirm={() => void confirmDelete()}
      />
    </>
  );
}
