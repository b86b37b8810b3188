import { useMemo, useState, type ReactNode } from 'react';
import type { FormikValues } from 'formik';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import AddIcon from '@mui/icons-material/Add';
import { actionKey, ALL } from '@sertifikasi/shared-contracts';
import { useAuth, useCan } from '@sertifikasi/shared-auth';
import { UI_FORMAT, UI_TEXT } from '../i18n/id';
import { DeleteDialog } from './DeleteDialog';
import { ListToolbar } from './ListToolbar';
import { ListPagination } from './pagination';
import { RecordFormModal, useFormModal } from './RecordFormModal';
import { ResourceTable } from './ResourceTable';
import { useRowActions } from './RowActions';
import type { ResourceColumn, ResourceConfig } from './types';
import { useResourceList } from './useResourceList';

export interface ResourceScreenProps<T extends { id: string }, V extends FormikValues> {
  config: ResourceConfig<T, V>;
}

/** `row.company.name`, or '-'. */
function defaultCompanyName(row: unknown): ReactNode {
  const company = (row as { company?: { name?: unknown } | null }).company;
  return typeof company?.name === 'string' && company.name ? company.name : UI_TEXT.dash;
}

/**
 * The management list screen of docs/rules.md#screens, built once and described per entity by a
 * {@link ResourceConfig}: search (debounced 500 ms, back to page 1), page sizes 20/50/100/200, the
 * page window of ±4 with previous/next, 'Menampilkan a - b dari n data', sortable columns, page,
 * search and order kept in the address, the empty and loading boxes, 'Tambah <label>' (with
 * `<module>:create`), row actions Detail / Ubah (with `:edit`) / Hapus (with `:delete`) and the
 * config's own, the add/edit modal (one formik form, yup schema, 422 field errors), the delete
 * confirmation, the toasts, the Perusahaan column when the header says ALL, and a reload when the
 * header's company changes. Place it inside a react-router router.
 *
 * Composed of parts a detail page or a report can use alone: useResourceList (useListState +
 * useListData), ListToolbar, ResourceTable, useRowActions, ListPagination, RecordFormModal,
 * DeleteDialog (saveRecord / deleteRecord).
 */
export function ResourceScreen<T extends { id: string }, V extends FormikValues>({
  config,
}: ResourceScreenProps<T, V>) {
  const companyId = useAuth((s) => s.company_id);
  const canCreate = useCan(actionKey(config.module, 'create'));
  const canEdit = useCan(actionKey(config.module, 'edit'));
  const canDelete = useCan(actionKey(config.module, 'delete'));
  const companyScoped = config.companyScoped === true;
  const showCompany = companyScoped && companyId === ALL;

  const list = useResourceList<T>(config.endpoint, companyId, companyScoped, {
    ...(config.defaultSort ? { defaultSort: config.defaultSort } : {}),
    ...(config.listParams ? { filters: config.listParams } : {}),
  });
  const rows = list.data?.data ?? [];

  const modal = useFormModal<T>();
  const [toDelete, setToDelete] = useState<T | null>(null);

  const actions = useRowActions<T>(config.actions, {
    ...(config.detail ? { detailHref: config.detail.href } : {}),
    ...(canEdit ? { onEdit: modal.openEdit } : {}),
    ...(canDelete ? { onDelete: setToDelete } : {}),
  });

  const columns = useMemo(() => {
    const all: ResourceColumn<T>[] = [...config.columns];
    if (showCompany) {
      all.splice(config.companyColumnIndex ?? 1, 0, {
        key: '__company',
        header: UI_TEXT.company,
        render: config.companyName ?? defaultCompanyName,
      });
    }
    return all;
  }, [config.columns, config.companyColumnIndex, config.companyName, showCompany]);

  const Toolbar = config.toolbar;
  const afterSave = () => {
    list.reload();
    config.afterChange?.();
  };

  const afterDelete = () => {
    // The last row of a later page is gone: show the page before it.
    if (rows.length === 1 && list.page > 1) list.setPage(list.page - 1);
    else list.reload();
    config.afterChange?.();
  };

  return (
    <Paper variant="outlined" sx={{ overflow: 'hidden' }}>
      <ListToolbar
        title={config.title}
        search={{
          value: list.searchText,
          onChange: list.setSearchText,
          placeholder: config.searchPlaceholder,
        }}
        pageSize={{ value: list.pageSize, onChange: list.setPageSize }}
      >
        {Toolbar && <Toolbar reload={afterSave} />}
        {canCreate && (
          <Button variant="contained" startIcon={<AddIcon />} onClick={modal.openCreate}>
            {UI_FORMAT.addTitle(config.entityLabel)}
          </Button>
        )}
      </ListToolbar>
      <ResourceTable
        columns={columns}
        rows={rows}
        loading={list.loading}
        sort={list.sort}
        onSort={list.toggleSort}
        actions={actions}
        label={config.title}
        {...(config.emptyText ? { emptyText: config.emptyText } : {})}
      />
      {list.data && rows.length > 0 && (
        <ListPagination
          current={list.data.current_page}
          last={list.data.last_page}
          from={list.data.from}
          to={list.data.to}
          total={list.data.total}
          capped={list.data.total_capped}
          onPage={list.setPage}
        />
      )}
      <RecordFormModal<T, V>
        modal={modal}
        form={config.form}
        endpoint={config.endpoint}
        entityLabel={config.entityLabel}
        companyScoped={companyScoped}
        onSaved={afterSave}
      />
      <DeleteDialog<T>
        target={toDelete}
        path={(row) => `${config.endpoint}/${row.id}`}
        onClose={() => setToDelete(null)}
        onDeleted={afterDelete}
      />
    </Paper>
  );
}
