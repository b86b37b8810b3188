import { ConfirmDialog } from '../modal/ConfirmDialog';
import { useDeleteRecord } from './mutations';

export interface DeleteDialogProps<T> {
  /** The record to delete; null: closed. */
  target: T | null;
  /** The API path without '/api' that deletes it, e.g. `(row) => \`accredited/${row.id}\``. */
  path: (row: T) => string;
  /** Batalkan, Esc, or after a delete. */
  onClose: () => void;
  /** After the delete succeeded (the toast shown), before the dialog closes. */
  onDeleted?: (row: T) => void;
  /** The question; 'Kamu yakin untuk menghapus data ini' by default. */
  text?: string;
}

/**
 * The delete confirmation on its own: 'Kamu yakin untuk menghapus data ini' with Batalkan and
 * Yakin; Yakin deletes through {@link deleteRecord} (toasts). When the API refuses (in use), the
 * dialog stays open with the refusal's warning.
 */
export function DeleteDialog<T>({ target, path, onClose, onDeleted, text }: DeleteDialogProps<T>) {
  const { remove, deleting } = useDeleteRecord();
  const confirm = async () => {
    if (!target) return;
    if (!(await remove(path(target)))) return;
    onDeleted?.(target);
    onClose();
  };
  return (
    <ConfirmDialog
      open={target !== null}
      busy={deleting}
      onCancel={onClose}
      onConfirm={() => void confirm()}
      {...(text ? { text } : {})}
    />
  );
}
