import { useEffect } from 'react';
import type { IafReadiness, IafSettings, IafUpload, IafUploadList } from '@sertifikasi/shared-contracts';
import { logLoadFailure, useFetch, type FetchState } from '@sertifikasi/shared-ui';

/** How often 'Riwayat Unggah' is asked again while an upload is queued or running. */
export const FOLLOW_UPLOAD_MS = 2000;

/** An upload the job has not finished yet. */
export const uploadRunning = (upload: IafUpload) => upload.state === 'queued' || upload.state === 'running';

export interface IafCompanyState {
  readiness: FetchState<IafReadiness>;
  settings: FetchState<IafSettings>;
  uploads: FetchState<IafUploadList>;
  /** An upload of the company is queued or running (the list is followed meanwhile). */
  running: boolean;
}

/**
 * The three reads of a company's IAF CertSearch (shared-ui's useFetch; failures are shown in place):
 * readiness, settings and uploads. While an upload is queued or running, the uploads are asked again
 * every FOLLOW_UPLOAD_MS, each ask after the previous answer, until none is.
 */
export function useIafCompany(companyId: string): IafCompanyState {
  const searchParams = { company_id: companyId };
  const options = { searchParams, onError: logLoadFailure };
  const readiness = useFetch<IafReadiness>('iaf-certsearch', options);
  const settings = useFetch<IafSettings>('iaf-certsearch/settings', options);
  const uploads = useFetch<IafUploadList>('iaf-certsearch/uploads', options);
  const running = !!uploads.data?.data.some(uploadRunning);
  const { loading, reload } = uploads;
  useEffect(() => {
    if (!running || loading) return;
    const timer = setTimeout(reload, FOLLOW_UPLOAD_MS);
    return () => clearTimeout(timer);
  }, [running, loading, reload, uploads.data, uploads.failure]);
  return { readiness, settings, uploads, running };
}
