import { useState } from 'react';
import Button from '@mui/material/Button';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import { actionKey, type ImportKind } from '@sertifikasi/shared-contracts';
import { useCan } from '@sertifikasi/shared-auth';
import { t } from '../../i18n/id';
import { ImportDialog } from './ImportDialog';
import { useImportJob } from './useImportJob';

/**
 * 'Impor Excel' in a list's toolbar (the resource screen's `toolbar` slot), with the module's create
 * permission. It follows the import job the dialog started, also once the dialog is closed: when
 * the job ends a toast says how and the list reloads.
 */
export function importButton(kind: ImportKind, label: string) {
  function ImportExcelButton({ reload }: { reload: () => void }) {
    const canCreate = useCan(actionKey(kind, 'create'));
    const [open, setOpen] = useState(false);
    const { job, follow, forget } = useImportJob(reload);
    if (!canCreate) return null;
    return (
      <>
        <Button variant="outlined" startIcon={<UploadFileIcon />} onClick={() => setOpen(true)}>
          {t.import.open}
        </Button>
        <ImportDialog
          kind={kind}
          label={label}
          open={open}
          onClose={() => setOpen(false)}
          job={job}
          onJob={follow}
          onForget={forget}
        />
      </>
    );
  }
  return ImportExcelButton;
}
