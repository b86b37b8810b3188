import type { ComponentType, ReactNode } from 'react';
import type { FormikValues } from 'formik';
import type { AnyObjectSchema } from 'yup';
import type { ActionModule } from '@sertifikasi/shared-contracts';

/** Whether the modal adds a record ('Tambah ...') or changes one ('Ubah ...'). */
export type FormMode = 'create' | 'edit';

/** One column of the list table. */
export interface ResourceColumn<T> {
  /** The header text, e.g. 'Nama'. */
  header: string;
  /** What a cell shows for a row: text, a badge, a name with its logo... */
  render: (row: T) => ReactNode;
  /** A stable React key when two columns share a header; the header otherwise. */
  key?: string;
  align?: 'left' | 'center' | 'right';
  /** CSS width of the column, e.g. 120 or '30%'. */
  width?: number | string;
}

/** What the form's fields component receives. */
export interface ResourceFieldsProps<T> {
  mode: FormMode;
  /** The row being changed in 'edit' mode; null in 'create' mode. */
  row: T | null;
}

/** The add/edit form: one form for both modes (CONVENTIONS.md "One resource screen"). */
export interface ResourceFormConfig<T, V extends FormikValues> {
  /**
   * The formik values to start from: empty ones for 'create' (row null), the row's for 'edit'.
   * Only keys the schema knows: the shared schemas refuse unknown keys (`noUnknown`), and an unknown
   * key would block the form without a message under any field. Use '' (not null/undefined) for an
   * empty text so inputs stay controlled. For company-owned records include `company_id` (''
   * for a new record): when the header's selection is one company, the screen fills it in.
   */
  initialValues: (row: T | null) => V;
  /**
   * The yup schema for a mode, normally one from shared-contracts, e.g.
   * `(mode) => (mode === 'create' ? userCreateSchema : userUpdateSchema)`.
   */
  schema: (mode: FormMode) => AnyObjectSchema;
  /**
   * Renders the inputs (TextInput, SelectInput, ImageInput, CompanyInput...), each named by its API
   * field. A component, so it may use hooks (e.g. to load the options of a select).
   */
  Fields: ComponentType<ResourceFieldsProps<T>>;
  /**
   * Turns the form values into the request body, e.g. to serialise `company_ids` or to leave a blank
   * password out. The values are sent as they are when absent.
   */
  toBody?: (values: V, mode: FormMode, row: T | null) => Record<string, unknown>;
  /**
   * Send multipart form data (records with images): POST `<endpoint>` to add, POST `<endpoint>/<id>`
   * with `_method=PUT` to change. Otherwise JSON: POST `<endpoint>` and PUT `<endpoint>/<id>`.
   * Files go as files, null as '' (which removes a stored image), arrays and objects as JSON text.
   */
  multipart?: boolean;
  /** Width of the modal, e.g. 650 (pixels) or '80vw'; 600 by default. */
  width?: number | string;
}

/**
 * Describes one management list screen (SPEC.md section 2, "Management list screens (common)") for
 * `<ResourceScreen config={...} />`, which supplies all the common behaviour: the list call with
 * page, paginate, search (and company_id), debounced search, page sizes, the page window, the
 * summary, the empty and loading boxes, the Tambah button and row actions gated by the module's
 * action permissions, the add/edit modal, the delete confirmation, toasts, and reloads.
 *
 * `T` is the row as the list endpoint returns it; `V` the form values.
 *
 * @example
 * const userResource: ResourceConfig<User, UserFormValues> = {
 *   title: 'User',
 *   entityLabel: 'User',
 *   endpoint: 'user',
 *   module: 'user',
 *   searchPlaceholder: 'Cari User',
 *   columns: [
 *     { header: 'Nama', render: (u) => u.name },
 *     { header: 'Username', render: (u) => u.username },
 *     { header: 'Akses', render: (u) => u.roles?.name ?? '-' },
 *     { header: 'Status', render: (u) => <StatusBadge active={u.is_active === 'true'} /> },
 *   ],
 *   form: {
 *     initialValues: (u) => ({ name: u?.name ?? '', username: u?.username ?? '', password: '', ... }),
 *     schema: (mode) => (mode === 'create' ? userCreateSchema : userUpdateSchema),
 *     Fields: UserFields,
 *     toBody: (v) => ({ ...v, company_ids: serializeCompanyIds(v.company_ids) }),
 *     width: 650,
 *   },
 * };
 */
export interface ResourceConfig<T extends { id: string }, V extends FormikValues = FormikValues> {
  /** The heading above the table, e.g. 'Akses User'. */
  title: string;
  /** What one record is called, for the modal titles 'Tambah <label>' / 'Ubah <label>' and the add button. */
  entityLabel: string;
  /** The API path without '/api', e.g. 'user' or 'company-certificate'. */
  endpoint: string;
  /** Permission module: `<module>:create` shows Tambah, `:edit` Ubah, `:delete` Hapus. */
  module: ActionModule;
  /** Placeholder and accessible name of the search box, e.g. 'Cari User'. */
  searchPlaceholder: string;
  /** The table's columns, in order (the Perusahaan column is added by the screen). */
  columns: readonly ResourceColumn<T>[];
  /**
   * Company-owned records: the list call carries the header's `company_id`, the Perusahaan column
   * shows when the selection is ALL, and a new record gets the selected company when it is one.
   */
  companyScoped?: boolean;
  /** The Perusahaan cell; `row.company.name` (or '-') by default. */
  companyName?: (row: T) => ReactNode;
  /** Where the Perusahaan column goes among `columns`; 1 (after the first) by default. */
  companyColumnIndex?: number;
  /** A Detail action (always shown, whatever the permissions) linking to the record's own page. */
  detail?: { href: (row: T) => string };
  form: ResourceFormConfig<T, V>;
  /**
   * Called after a record was added, changed or deleted (after the success toast), e.g. to refresh
   * what the shell shows from the same data: the header's company list after a company changes.
   */
  afterChange?: () => void;
}
