import { useEffect, useRef, useState } from 'react';
import { type ImportJob, IMPORT_MESSAGES } from '@sertifikasi/shared-contracts';
import { api } from '@sertifikasi/shared-auth';
import { showToast } from '@sertifikasi/shared-ui';

/** How often a running import job is asked for its progress. */
export const JOB_POLL_MS = 500;

export const jobEnded = (job: ImportJob | null): boolean => job?.state === 'done' || job?.state === 'failed';

/**
 * The import job the list's 'Impor Excel' started, followed until it ends (GET /api/import/jobs/{id}),
 * whether the dialog is open or not. When it ends: a toast says how (done: the rows; failed: why)
 * and `onEnd` runs (the list reloads). Held by the button, which stays while the list is shown.
 */
export function useImportJob(onEnd: () => void) {
  const [job, setJob] = useState<ImportJob | null>(null);
  const ending = useRef(onEnd);
  ending.current = onEnd;

  useEffect(() => {
    if (!job || jobEnded(job)) return undefined;
    let live = true;
    const timer = setTimeout(() => {
      api
        .get(`import/jobs/${encodeURIComponent(job.id)}`)
        .json<ImportJob>()
        .then((next) => {
          if (!live) return;
          setJob(next);
          if (next.state === 'done') showToast('success', IMPORT_MESSAGES.done(next.total));
          if (next.state === 'failed') showToast('danger', next.error?.message ?? IMPORT_MESSAGES.failed);
          if (jobEnded(next)) ending.current();
        })
        // A failed poll (the network, a restart): ask again on the next turn.
        .catch(() => live && setJob({ ...job }));
    }, JOB_POLL_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [job]);

  return { job, follow: setJob, forget: () => setJob(null) };
}
