import { useCallback, useState } from 'react';
import { getIn, setIn, type FormikErrors, type FormikHelpers, type FormikValues } from 'formik';
import { ERROR_CODES, MESSAGES, type DeleteResponse } from '@sertifikasi/shared-contracts';
import { api, notifyApiError, readApiError } from '@sertifikasi/shared-auth';
import { showToast } from '@sertifikasi/shared-ui/core';
import { toFormData } from './body';
import type { FormMode } from './types';

export interface SaveRecordRequest {
  /** The API path without '/api', e.g. 'user' or 'profile'. */
  endpoint: string;
  /** The record to change: the call goes to `<endpoint>/<id>`. */
  id?: string | null;
  /** 'create' (POST) or 'edit' (PUT); 'edit' when an id is given, 'create' otherwise. */
  mode?: FormMode;
  body: Record<string, unknown>;
  /**
   * Multipart form data (records with images): POST, and for 'edit' POST with `_method=PUT`
   * (docs/rules.md#api-conventions). Otherwise JSON: POST to add, PUT to change.
   */
  multipart?: boolean;
  /** The success toast: 'Berhasil menambahkan data' / 'Berhasil merubah data' by default; false for none. */
  successMessage?: string | false;
}

export type SaveResult<R> = { ok: true; record: R } | { ok: false };

/**
 * The API's field errors (flat, by path: `name`, `team[1].auditor_id`) as formik holds them, nested,
 * so a message shows under the input of that list row (`team.1.auditor_id`). A list's own message
 * (`team`) stays a string while no row of it has one; when rows have theirs, the rows' win (the
 * toast still says the first message).
 */
export function nestFieldErrors(flat: Record<string, unknown>): Record<string, unknown> {
  const paths = Object.keys(flat).filter((key) => typeof flat[key] === 'string');
  // Rows first: a list's own message never stands where its rows' messages go.
  const deepest = [...paths].sort((a, b) => b.split(/[.[]/).length - a.split(/[.[]/).length);
  let out: Record<string, unknown> = {};
  for (const path of deepest) {
    if (getIn(out, path) !== undefined) continue;
    const parts = path.split(/[.[\]]+/).filter(Boolean);
    if (parts.slice(1).some((_p, i) => typeof getIn(out, parts.slice(0, i + 1)) === 'string')) continue;
    out = setIn(out, path, flat[path]) as Record<string, unknown>;
  }
  return out;
}

/** Where a 422's field errors go: a form's formik helpers (only `setErrors` is used). */
export type FieldErrorSink<V extends FormikValues = FormikValues> = Pick<FormikHelpers<V>, 'setErrors'>;

/**
 * Saves a record and tells the user: the success toast; a 422's field errors onto the form's
 * fields with its message as a warning; a 413's message; 'Maaf, ada kesalahan pada sistem' for
 * anything else. Resolves with the API's answer (the stored record), or `{ ok: false }`.
 */
export async function saveRecord<R = unknown, V extends FormikValues = FormikValues>(
  request: SaveRecordRequest,
  form?: FieldErrorSink<V>,
): Promise<SaveResult<R>> {
  const { endpoint, id, body, multipart = false } = request;
  const mode = request.mode ?? (id ? 'edit' : 'create');
  const path = id ? `${endpoint}/${encodeURIComponent(id)}` : endpoint;
  let record: R;
  try {
    if (multipart) {
      const data = toFormData(body);
      if (mode === 'edit') data.set('_method', 'PUT');
      record = await api.post(path, { body: data }).json<R>();
    } else if (mode === 'edit') {
      record = await api.put(path, { json: body }).json<R>();
    } else {
      record = await api.post(path, { json: body }).json<R>();
    }
  } catch (err) {
    const answer = await readApiError(err);
    if (answer && (answer.code === ERROR_CODES.validation || answer.errors)) {
      // The API names its field errors by the form's field names (docs/rules.md#screens).
      form?.setErrors(nestFieldErrors(answer.errors ?? {}) as FormikErrors<V>);
      showToast('warning', answer.message);
    } else if (answer?.code === ERROR_CODES.tooLarge) {
      // An image past 2 MiB: say so rather than 'Maaf, ada kesalahan pada sistem'.
      showToast('warning', answer.message);
    } else {
      notifyApiError(err);
    }
    return { ok: false };
  }
  const message = request.successMessage ?? (mode === 'create' ? MESSAGES.created : MESSAGES.updated);
  if (message) showToast('success', message);
  return { ok: true, record };
}

/**
 * Deletes a record and tells the user: 'Berhasil menghapus data'; the API's refusal
 * (`{success: false, message}`, e.g. 'Gagal menghapus data karena data ini sudah dipakai di order')
 * as a warning, and so a `409 conflict`'s message; 'Maaf, ada kesalahan pada sistem' when the call fails. Resolves with whether it
 * was deleted.
 */
export async function deleteRecord(path: string): Promise<boolean> {
  try {
    const answer = await api.delete(path).json<DeleteResponse>();
    if (!answer.success) {
      showToast('warning', answer.message || MESSAGES.inUseOrder);
      return false;
    }
  } catch (err) {
    // 409: the record is in use in a way the API names (a site a certificate covers): its refusal.
    const answer = await readApiError(err);
    if (answer?.code === ERROR_CODES.conflict) showToast('warning', answer.message);
    else notifyApiError(err);
    return false;
  }
  showToast('success', MESSAGES.deleted);
  return true;
}

/** {@link saveRecord} with a `saving` flag. */
export function useSaveRecord<R = unknown>() {
  const [saving, setSaving] = useState(false);
  const save = useCallback(
    async <V extends FormikValues>(request: SaveRecordRequest, form?: FieldErrorSink<V>) => {
      setSaving(true);
      try {
        return await saveRecord<R, V>(request, form);
      } finally {
        setSaving(false);
      }
    },
    [],
  );
  return { save, saving };
}

/** {@link deleteRecord} with a `deleting` flag. */
export function useDeleteRecord() {
  const [deleting, setDeleting] = useState(false);
  const remove = useCallback(async (path: string) => {
    setDeleting(true);
    try {
      return await deleteRecord(path);
    } finally {
      setDeleting(false);
    }
  }, []);
  return { remove, deleting };
}
