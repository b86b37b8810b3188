import { useCallback, useEffect, useRef, useState } from 'react';
import { downloadFile, notifyApiError } from '@sertifikasi/shared-auth';
import { showToast } from '@sertifikasi/shared-ui';
import { t } from '../../i18n/id';

/** A running export: bytes received so far, and the total when the answer says it. */
export interface ExportProgress {
  received: number;
  total?: number;
}

export interface ReportExport {
  /** Null when no export runs. */
  progress: ExportProgress | null;
  /** Downloads `path` with these parameters and saves it (as the answer names it, else `filename`). */
  start: (path: string, searchParams: URLSearchParams, filename: string) => Promise<void>;
  /** 'Batalkan': stops the download; nothing is saved. */
  cancel: () => void;
}

const isAbort = (err: unknown) =>
  typeof err === 'object' && err !== null && (err as { name?: unknown }).name === 'AbortError';

/**
 * An Excel export through shared-auth's downloadFile: progress as bytes arrive, cancellable; the
 * file saves under the name the API gives (the spec's name, also passed as the fallback). A failure
 * shows 'Maaf, ada kesalahan pada sistem'; leaving the screen cancels a running export.
 */
export function useExport(): ReportExport {
  const [progress, setProgress] = useState<ExportProgress | null>(null);
  const controller = useRef<AbortController | null>(null);

  useEffect(() => () => controller.current?.abort(), []);

  const start = useCallback(async (path: string, searchParams: URLSearchParams, filename: string) => {
    controller.current?.abort();
    const own = new AbortController();
    controller.current = own;
    setProgress({ received: 0 });
    try {
      await downloadFile(path, {
        searchParams,
        filename,
        signal: own.signal,
        onProgress: (received, total) => {
          if (!own.signal.aborted) setProgress(total === undefined ? { received } : { received, total });
        },
      });
      if (!own.signal.aborted) showToast('success', t.report.exportDone);
    } catch (err) {
      if (isAbort(err) || own.signal.aborted) showToast('warning', t.report.exportCancelled);
      else notifyApiError(err);
    } finally {
      if (controller.current === own) {
        controller.current = null;
        setProgress(null);
      }
    }
  }, []);

  const cancel = useCallback(() => controller.current?.abort(), []);
  return { progress, start, cancel };
}

/** Bytes as people read them, with id-ID separators: '840 B', '12,5 KB', '3,2 MB'. */
export function formatBytes(bytes: number): string {
  const format = (n: number) => new Intl.NumberFormat('id-ID', { maximumFractionDigits: 1 }).format(n);
  if (bytes < 1024) return `${format(bytes)} B`;
  if (bytes < 1024 * 1024) return `${format(bytes / 1024)} KB`;
  return `${format(bytes / (1024 * 1024))} MB`;
}
