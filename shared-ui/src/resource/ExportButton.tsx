import { useState } from 'react';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import FileDownloadIcon from '@mui/icons-material/FileDownloadOutlined';
import { downloadFile, notifyApiError } from '@sertifikasi/shared-auth';
import { UI_TEXT } from '../i18n/id';

export interface ExportButtonProps {
  /** The API path of the list (`planned-audit`, `audit-schedule/{company}`); `type=export` is added. */
  path: string;
  /** The list's filters as they are now (read when the button is pressed). */
  searchParams: () => Record<string, string>;
  /** The workbook's file name (the contract's). */
  filename: string;
}

/**
 * 'Export Excel' of a list that answers its workbook at once (`type=export`): 'Export Data...' and
 * disabled while the file downloads, a refusal in the toast. The reports' export, a job with its
 * progress, has its own (mf-reports).
 */
export function ExportButton({ path, searchParams, filename }: ExportButtonProps) {
  const [exporting, setExporting] = useState(false);
  const exportFile = async () => {
    setExporting(true);
    try {
      await downloadFile(path, { searchParams: { ...searchParams(), type: 'export' }, filename });
    } catch (err) {
      notifyApiError(err);
    } finally {
      setExporting(false);
    }
  };
  return (
    <Button
      variant="outlined"
      color="success"
      disabled={exporting}
      startIcon={exporting ? <CircularProgress size={16} color="inherit" /> : <FileDownloadIcon />}
      onClick={() => void exportFile()}
    >
      {exporting ? UI_TEXT.exporting : UI_TEXT.exportExcel}
    </Button>
  );
}
