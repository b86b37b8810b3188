import { useCallback, useMemo, useState } from 'react';
import type { FormikHelpers, FormikValues } from 'formik';
import { ALL } from '@sertifikasi/shared-contracts';
import { useAuth } from '@sertifikasi/shared-auth';
import { UI_FORMAT } from '../i18n/id';
import { FormModal } from '../modal/FormModal';
import { saveRecord } from './mutations';
import type { FormMode, ResourceFormConfig } from './types';

/** Which form is open, for which row; `opening` counts openings, so each starts a fresh form. */
export interface FormModalState<T> {
  mode: FormMode;
  row: T | null;
  open: boolean;
  opening: number;
}

/** The state of an add/edit modal: `openCreate()`, `openEdit(row)`, `close()`. */
export function useFormModal<T>() {
  const [state, setState] = useState<FormModalState<T>>({
    mode: 'create',
    row: null,
    open: false,
    opening: 0,
  });
  const openCreate = useCallback(
    () => setState((m) => ({ mode: 'create', row: null, open: true, opening: m.opening + 1 })),
    [],
  );
  const openEdit = useCallback(
    (row: T) => setState((m) => ({ mode: 'edit', row, open: true, opening: m.opening + 1 })),
    [],
  );
  // The content stays while the dialog closes.
  const close = useCallback(() => setState((m) => ({ ...m, open: false })), []);
  return { state, openCreate, openEdit, close };
}
export type FormModalControl<T> = ReturnType<typeof useFormModal<T>>;

const isEmptyValue = (value: unknown) => value === undefined || value === null || value === '';

export interface RecordFormModalProps<T extends { id: string }, V extends FormikValues> {
  /** From {@link useFormModal}. */
  modal: FormModalControl<T>;
  form: ResourceFormConfig<T, V>;
  /** The API path without '/api': POST `<endpoint>` adds, `<endpoint>/<id>` changes. */
  endpoint: string;
  /** What one record is called: the titles 'Tambah <label>' / 'Ubah <label>'. */
  entityLabel: string;
  /** Other titles than 'Tambah/Ubah <entityLabel>' (e.g. 'Ubah Profile Client'). */
  titles?: Partial<Record<FormMode, string>>;
  /**
   * Company-owned record: when the header selects one company, a new record's empty `company_id`
   * is that company.
   */
  companyScoped?: boolean;
  /** After a save succeeded (the toast shown, the modal closed): the API's answer and the mode. */
  onSaved?: (record: unknown, mode: FormMode) => void;
}

/**
 * The add/edit modal of a record on its own: one formik form for both modes from a
 * {@link ResourceFormConfig}, saved through {@link saveRecord} (JSON, or multipart with
 * `_method=PUT`; 422 field errors onto the fields; the toasts). ResourceScreen and ChildSection use
 * it; a detail page can too (e.g. 'Ubah Profile').
 */
export function RecordFormModal<T extends { id: string }, V extends FormikValues>({
  modal,
  form,
  endpoint,
  entityLabel,
  titles,
  companyScoped = false,
  onSaved,
}: RecordFormModalProps<T, V>) {
  const { mode, row, open, opening } = modal.state;
  const companyId = useAuth((s) => s.company_id);
  /** The company a new record belongs to when the header selects one company. */
  const ownCompany = companyScoped && companyId && companyId !== ALL ? companyId : null;

  const initialValues = useMemo(() => {
    const values: Record<string, unknown> = { ...form.initialValues(row) };
    if (ownCompany && 'company_id' in values && isEmptyValue(values.company_id))
      values.company_id = ownCompany;
    return values as V;
    // A new opening starts from fresh values even for the same row.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [row, opening, form, ownCompany]);

  const submit = async (values: V, helpers: FormikHelpers<V>) => {
    const body: Record<string, unknown> = form.toBody ? form.toBody(values, mode, row) : { ...values };
    if (ownCompany && isEmptyValue(body.company_id)) body.company_id = ownCompany;
    const result = await saveRecord(
      { endpoint, id: mode === 'edit' ? row?.id : null, mode, body, multipart: form.multipart === true },
      helpers,
    );
    if (!result.ok) return;
    modal.close();
    onSaved?.(result.record, mode);
  };

  return (
    <FormModal<V>
      open={open}
      formKey={opening}
      title={
        titles?.[mode] ??
        (mode === 'edit' ? UI_FORMAT.editTitle(entityLabel) : UI_FORMAT.addTitle(entityLabel))
      }
      onClose={modal.close}
      initialValues={initialValues}
      validationSchema={form.schema(mode)}
      onSubmit={submit}
      width={form.width}
    >
      <form.Fields mode={mode} row={row} />
    </FormModal>
  );
}
