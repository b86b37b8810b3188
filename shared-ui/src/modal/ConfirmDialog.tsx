import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogTitle from '@mui/material/DialogTitle';
import { UI_TEXT } from '../i18n/id';

export interface ConfirmDialogProps {
  open: boolean;
  /** 'Batalkan', Esc or a click outside (ignored while busy). */
  onCancel: () => void;
  /** 'Yakin'. */
  onConfirm: () => void;
  /** While true both buttons are disabled (the delete call is running). */
  busy?: boolean;
  /** The question, also the dialog's accessible name; 'Kamu yakin untuk menghapus data ini' by default. */
  text?: string;
}

/** The delete confirmation of docs/rules.md#screens: the question with Batalkan and Yakin. */
export function ConfirmDialog({
  open,
  onCancel,
  onConfirm,
  busy = false,
  text = UI_TEXT.confirmDelete,
}: ConfirmDialogProps) {
  return (
    <Dialog open={open} onClose={busy ? undefined : onCancel} maxWidth="xs" fullWidth>
      <DialogTitle>{text}</DialogTitle>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onCancel} disabled={busy} autoFocus>
          {UI_TEXT.cancel}
        </Button>
        <Button onClick={onConfirm} disabled={busy} variant="contained" color="error">
          {UI_TEXT.confirm}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
