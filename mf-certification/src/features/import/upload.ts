import { authStore } from '@sertifikasi/shared-auth';

export interface UploadAnswer {
  status: number;
  /** The JSON answer, or null when none could be read (a network failure: status 0). */
  body: unknown;
}

/**
 * Sends a multipart form to the API with upload progress (`onProgress` from 0 to 1), as the signed-in
 * user. XMLHttpRequest, not the ky client: a fetch upload reports progress only by streaming the
 * body, which browsers allow over HTTP/2 alone, and the portal is also served over plain HTTP/1.1.
 */
export function uploadForm(
  path: string,
  form: FormData,
  onProgress: (fraction: number) => void,
): Promise<UploadAnswer> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `/api/${path}`);
    const { token } = authStore.getState();
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      let body: unknown = null;
      try {
        body = JSON.parse(xhr.responseText) as unknown;
      } catch {
        body = null;
      }
      resolve({ status: xhr.status, body });
    };
    xhr.onerror = () => resolve({ status: 0, body: null });
    xhr.send(form);
  });
}
