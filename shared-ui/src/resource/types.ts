import type { ComponentType, ReactNode } from 'react';
import type { FormikValues } from 'formik';
import type { AnyObjectSchema } from 'yup';
import type { ActionModule, PermissionKey } from '@sertifikasi/shared-contracts';
import type { SortState } from './useListState';

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
  /**
   * Makes the header a sort button: the list is asked for with `sort=<sortKey>&order=asc|desc` (the
   * API's allow-listed key, e.g. 'name'), first ascending, again descending.
   */
  sortKey?: string;
}

/** The colours of an action button. */
export type ActionColor = 'default' | 'primary' | 'secondary' | 'error' | 'info' | 'success' | 'warning';

/** One action of a table row (or a card): a link or a button with an icon and an accessible name. */
export interface RowAction<T> {
  /** A stable React key, e.g. 'detail' or 'download'. */
  key: string;
  /** The accessible name and tooltip, e.g. 'Detail'. */
  label: string;
  /** The icon shown (an MUI icon element, fontSize 'small'); the label's first letter otherwise. */
  icon?: ReactNode;
  color?: ActionColor;
  /** A link (react-router) to this address... */
  href?: (row: T) => string;
  /** ...or a button running this. */
  onClick?: (row: T) => void;
  /** Shown only to users holding this key. */
  permission?: PermissionKey;
  /** Left out for some rows. */
  hidden?: (row: T) => boolean;
}

/** The actions the resource screen provides itself: Detail (with `detail`), Ubah (edit), Hapus (delete). */
export type BuiltInAction = 'detail' | 'edit' | 'delete';

/**
 * An entry of a screen's row actions, in order: a built-in action by name (optionally with another
 * label, e.g. `{ action: 'edit', label: 'Edit' }`), or an action of the config's own.
 */
export type ResourceActionEntry<T> = BuiltInAction | { action: BuiltInAction; label?: string } | RowAction<T>;

/** What the form's fields component receives. */
export interface ResourceFieldsProps<T> {
  mode: FormMode;
  /** The row being changed in 'edit' mode; null in 'create' mode. */
  row: T | null;
}

/** The add/edit form: one form for both modes (docs/conventions.md#inside-a-micro-frontend). */
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
 * Describes one management list screen (docs/rules.md#screens) for
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
  /**
   * More of the screen's own buttons in the toolbar, before 'Tambah' (e.g. 'Impor Excel'): a
   * component (it may use hooks), handed `reload`, which reloads the list as a save does.
   */
  toolbar?: ComponentType<{ reload: () => void }>;
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
  /**
   * The row actions in order; `['detail', 'edit', 'delete']` by default. Built-ins show as today
   * (Detail with `detail`, Ubah with `<module>:edit`, Hapus with `<module>:delete`); an action of the
   * config's own shows with its `permission`. The action column shows when any action may show.
   */
  actions?: readonly ResourceActionEntry<T>[];
  /** The order when the address names none (otherwise the API's own). */
  defaultSort?: SortState;
  /** Extra query parameters sent with every list call (fixed filters). */
  listParams?: Record<string, string>;
  /** The text of the empty box; 'Opps, Data Masih Kosong' by default. */
  emptyText?: string;
  form: ResourceFormConfig<T, V>;
  /**
   * Called after a record was added, changed or deleted (after the success toast), e.g. to refresh
   * what the shell shows from the same data: the header's company list after a company changes.
   */
  afterChange?: () => void;
}
