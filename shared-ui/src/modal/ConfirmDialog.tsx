import { type ReactNode, useId } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { UI_TEXT } from '../i18n/id';

export interface ConfirmDialogProps {
  open: boolean;
  /** The dismiss button ('Batalkan' by default), Esc or a click outside (ignored while busy). */
  onCancel: () => void;
  /** The confirm button ('Yakin' by default). */
  onConfirm: () => void;
  /** While true both buttons are disabled (the delete call is running). */
  busy?: boolean;
  /** The question, also the dialog's accessible name; 'Kamu yakin untuk menghapus data ini' by default. */
  text?: string;
  /** What confirming does, under the question (the dialog's accessible description); none by default. */
  description?: ReactNode;
  /** The confirm button's label; 'Yakin' by default. */
  confirmLabel?: string;
  /**
   * The dismiss button's label; 'Batalkan' by default. Give another ('Kembali') when the action
   * itself is a cancellation, so the two buttons cannot be taken for each other.
   */
  cancelLabel?: string;
  /** The confirm button's colour; red ('error') by default. */
  confirmColor?: 'error' | 'primary' | 'success';
}

/**
 * The delete confirmation of docs/rules.md#screens: the question with Batalkan and Yakin. Other
 * irreversible steps ask with it too, with their own question, description and labels.
 */
export function ConfirmDialog({
  open,
  onCancel,
  onConfirm,
  busy = false,
  text = UI_TEXT.confirmDelete,
  description,
  confirmLabel = UI_TEXT.confirm,
  cancelLabel = UI_TEXT.cancel,
  confirmColor = 'error',
}: ConfirmDialogProps) {
  const descriptionId = useId();
  return (
    <Dialog
      open={open}
      onClose={busy ? undefined : onCancel}
      maxWidth="xs"
      fullWidth
      aria-describedby={description ? descriptionId : undefined}
    >
      <DialogTitle>{text}</DialogTitle>
      {description ? (
        <DialogContent>
          <DialogContentText id={descriptionId}>{description}</DialogContentText>
        </DialogContent>
      ) : null}
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onCancel} disabled={busy} autoFocus>
          {cancelLabel}
        </Button>
        <Button onClick={onConfirm} disabled={busy} variant="contained" color={confirmColor}>
          {confirmLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
