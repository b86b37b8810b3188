import { useMemo, useState, type ChangeEvent, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import type { FormikHelpers, FormikValues } from 'formik';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import EditIcon from '@mui/icons-material/EditOutlined';
import SearchIcon from '@mui/icons-material/Search';
import VisibilityIcon from '@mui/icons-material/VisibilityOutlined';
import {
  actionKey,
  ALL,
  ERROR_CODES,
  MESSAGES,
  PAGE_SIZES,
  type DeleteResponse,
  type PageSize,
} from '@sertifikasi/shared-contracts';
import { api, notifyApiError, readApiError, useAuth, useCan } from '@sertifikasi/shared-auth';
import { UI_FORMAT, UI_TEXT } from '../i18n/id';
import { ConfirmDialog } from '../modal/ConfirmDialog';
import { FormModal } from '../modal/FormModal';
import { showToast } from '@sertifikasi/shared-ui/core';
import { toFormData } from './body';
import { ListPagination } from './pagination';
import type { FormMode, ResourceColumn, ResourceConfig } from './types';
import { useResourceList } from './useResourceList';
import { STICKY_END_CELL, WideTableContainer } from './WideTableContainer';

export interface ResourceScreenProps<T extends { id: string }, V extends FormikValues> {
  config: ResourceConfig<T, V>;
}

/** The modal's content stays while it closes; `opening` counts openings, so each starts a fresh form. */
type ModalState<T> = { mode: FormMode; row: T | null; open: boolean; opening: number };

/** `row.company.name`, or '-'. */
function defaultCompanyName(row: unknown): ReactNode {
  const company = (row as { company?: { name?: unknown } | null }).company;
  return typeof company?.name === 'string' && company.name ? company.name : UI_TEXT.dash;
}

const isEmptyValue = (value: unknown) => value === undefined || value === null || value === '';

/**
 * The management list screen of SPEC.md section 2, built once and described per entity by a
 * {@link ResourceConfig}: search (debounced 500 ms, back to page 1), page sizes 20/50/100/200, the
 * page window of ±4 with previous/next, 'Menampilkan a - b dari n data', the empty and loading
 * boxes, 'Tambah <label>' (with `<module>:create`), row actions Detail / Ubah (with `:edit`) / Hapus
 * (with `:delete`), the add/edit modal (one formik form, yup schema, 422 field errors), the delete
 * confirmation, the toasts, the Perusahaan column when the header says ALL, and a reload when the
 * header's company changes. Place it inside a react-router router when `detail` is configured.
 */
export function ResourceScreen<T extends { id: string }, V extends FormikValues>({
  config,
}: ResourceScreenProps<T, V>) {
  const { form } = config;
  const companyId = useAuth((s) => s.company_id);
  const canCreate = useCan(actionKey(config.module, 'create'));
  const canEdit = useCan(actionKey(config.module, 'edit'));
  const canDelete = useCan(actionKey(config.module, 'delete'));
  const companyScoped = config.companyScoped === true;
  const showCompany = companyScoped && companyId === ALL;
  const showActions = canEdit || canDelete || config.detail !== undefined;
  /** The company a new record belongs to when the header selects one company. */
  const ownCompany = companyScoped && companyId && companyId !== ALL ? companyId : null;

  const list = useResourceList<T>(config.endpoint, companyId, companyScoped);
  const rows = list.data?.data ?? [];

  const [modal, setModal] = useState<ModalState<T>>({ mode: 'create', row: null, open: false, opening: 0 });
  const openModal = (mode: FormMode, row: T | null) =>
    setModal((m) => ({ mode, row, open: true, opening: m.opening + 1 }));
  const closeModal = () => setModal((m) => ({ ...m, open: false }));
  const [deleting, setDeleting] = useState<{ row: T; busy: boolean } | null>(null);

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
  const columnCount = columns.length + (showActions ? 1 : 0);

  const initialValues = useMemo(() => {
    const values: Record<string, unknown> = { ...form.initialValues(modal.row) };
    if (ownCompany && 'company_id' in values && isEmptyValue(values.company_id))
      values.company_id = ownCompany;
    return values as V;
  }, [modal.row, modal.opening, form, ownCompany]);

  const save = async (values: V, helpers: FormikHelpers<V>) => {
    const { mode, row } = modal;
    const body: Record<string, unknown> = form.toBody ? form.toBody(values, mode, row) : { ...values };
    if (ownCompany && isEmptyValue(body.company_id)) body.company_id = ownCompany;
    const path = mode === 'edit' && row ? `${config.endpoint}/${row.id}` : config.endpoint;
    try {
      if (form.multipart) {
        const data = toFormData(body);
        if (mode === 'edit') data.set('_method', 'PUT');
        await api.post(path, { body: data });
      } else if (mode === 'edit') {
        await api.put(path, { json: body });
      } else {
        await api.post(path, { json: body });
      }
    } catch (err) {
      const answer = await readApiError(err);
      if (answer && (answer.code === ERROR_CODES.validation || answer.errors)) {
        helpers.setErrors((answer.errors ?? {}) as Parameters<typeof helpers.setErrors>[0]);
        showToast('warning', answer.message);
      } else if (answer?.code === ERROR_CODES.tooLarge) {
        // An image past 2 MiB: say so rather than 'Maaf, ada kesalahan pada sistem'.
        showToast('warning', answer.message);
      } else {
        notifyApiError(err);
      }
      return;
    }
    closeModal();
    showToast('success', mode === 'create' ? MESSAGES.created : MESSAGES.updated);
    list.reload();
    config.afterChange?.();
  };

  const confirmDelete = async () => {
    if (!deleting) return;
    const { row } = deleting;
    setDeleting({ row, busy: true });
    try {
      const answer = await api.delete(`${config.endpoint}/${row.id}`).json<DeleteResponse>();
      if (!answer.success) {
        showToast('warning', answer.message);
        setDeleting({ row, busy: false });
        return;
      }
    } catch (err) {
      notifyApiError(err);
      setDeleting({ row, busy: false });
      return;
    }
    setDeleting(null);
    showToast('success', MESSAGES.deleted);
    // The last row of a later page is gone: show the page before it.
    if (rows.length === 1 && list.page > 1) list.setPage(list.page - 1);
    else list.reload();
    config.afterChange?.();
  };

  const onPageSize = (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
    const size = Number(event.target.value);
    if ((PAGE_SIZES as readonly number[]).includes(size)) list.setPageSize(size as PageSize);
  };

  const firstLoad = list.loading && rows.length === 0;

  return (
    <Paper variant="outlined" sx={{ overflow: 'hidden' }}>
      <Stack
        direction={{ xs: 'column', md: 'row' }}
        spacing={2}
        sx={{ p: 2, alignItems: { md: 'center' }, justifyContent: 'space-between' }}
      >
        <Typography variant="h6" component="h2">
          {config.title}
        </Typography>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ alignItems: { sm: 'center' } }}>
          <TextField
            type="search"
            name="search"
            size="small"
            value={list.searchText}
            onChange={(event) => list.setSearchText(event.target.value)}
            placeholder={config.searchPlaceholder}
            slotProps={{
              htmlInput: { 'aria-label': config.searchPlaceholder },
              input: {
                startAdornment: (
                  <InputAdornment position="start">
                    <SearchIcon fontSize="small" />
                  </InputAdornment>
                ),
              },
            }}
          />
          <TextField
            select
            name="paginate"
            size="small"
            label={UI_TEXT.pageSize}
            value={list.pageSize}
            onChange={onPageSize}
            sx={{ minWidth: 140 }}
            slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
          >
            {PAGE_SIZES.map((size) => (
              <option key={size} value={size}>
                {size}
              </option>
            ))}
          </TextField>
          {canCreate && (
            <Button variant="contained" startIcon={<AddIcon />} onClick={() => openModal('create', null)}>
              {UI_FORMAT.addTitle(config.entityLabel)}
            </Button>
          )}
        </Stack>
      </Stack>
      <Box sx={{ height: 4 }}>{list.loading && !firstLoad && <LinearProgress />}</Box>
      <WideTableContainer contentKey={`${columnCount}:${rows.length}:${list.loading}`}>
        <Table size="small" aria-busy={list.loading}>
          <TableHead>
            <TableRow>
              {columns.map((column) => (
                <TableCell
                  key={column.key ?? column.header}
                  align={column.align}
                  sx={{ width: column.width }}
                >
                  {column.header}
                </TableCell>
              ))}
              {showActions && (
                <TableCell align="center" className={STICKY_END_CELL}>
                  {UI_TEXT.actions}
                </TableCell>
              )}
            </TableRow>
          </TableHead>
          <TableBody>
            {firstLoad || rows.length === 0 ? (
              <TableRow>
                <TableCell colSpan={columnCount}>
                  <Stack
                    spacing={1}
                    sx={{ py: 6, alignItems: 'center', color: 'text.secondary' }}
                    role="status"
                  >
                    {firstLoad && <CircularProgress size={28} />}
                    <Typography>{firstLoad ? UI_TEXT.loading : UI_TEXT.empty}</Typography>
                  </Stack>
                </TableCell>
              </TableRow>
            ) : (
              rows.map((row) => (
                <TableRow key={row.id} hover>
                  {columns.map((column) => (
                    <TableCell key={column.key ?? column.header} align={column.align}>
                      {column.render(row)}
                    </TableCell>
                  ))}
                  {showActions && (
                    <TableCell align="center" className={STICKY_END_CELL} sx={{ whiteSpace: 'nowrap' }}>
                      {config.detail && (
                        <Tooltip title={UI_TEXT.detail}>
                          <IconButton
                            component={RouterLink}
                            to={config.detail.href(row)}
                            aria-label={UI_TEXT.detail}
                            size="small"
                            color="info"
                          >
                            <VisibilityIcon fontSize="small" />
                          </IconButton>
                        </Tooltip>
                      )}
                      {canEdit && (
                        <Tooltip title={UI_TEXT.edit}>
                          <IconButton
                            aria-label={UI_TEXT.edit}
                            size="small"
                            color="primary"
                            onClick={() => openModal('edit', row)}
                          >
                            <EditIcon fontSize="small" />
                          </IconButton>
                        </Tooltip>
                      )}
                      {canDelete && (
                        <Tooltip title={UI_TEXT.delete}>
                          <IconButton
                            aria-label={UI_TEXT.delete}
                            size="small"
                            color="error"
                            onClick={() => setDeleting({ row, busy: false })}
                          >
                            <DeleteIcon fontSize="small" />
                          </IconButton>
                        </Tooltip>
                      )}
                    </TableCell>
                  )}
                </TableRow>
              ))
            )}
          </TableBody>
        </Table>
      </WideTableContainer>
      {list.data && rows.length > 0 && (
        <ListPagination
          current={list.data.current_page}
          last={list.data.last_page}
          from={list.data.from}
          to={list.data.to}
          total={list.data.total}
          onPage={list.setPage}
        />
      )}
      <FormModal<V>
        open={modal.open}
        formKey={modal.opening}
        title={
          modal.mode === 'edit'
            ? UI_FORMAT.editTitle(config.entityLabel)
            : UI_FORMAT.addTitle(config.entityLabel)
        }
        onClose={closeModal}
        initialValues={initialValues}
        validationSchema={form.schema(modal.mode)}
        onSubmit={save}
        width={form.width}
      >
        <form.Fields mode={modal.mode} row={modal.row} />
      </FormModal>
      <ConfirmDialog
        open={deleting !== null}
        busy={deleting?.busy}
        onCancel={() => setDeleting(null)}
        onConfirm={() => void confirmDelete()}
      />
    </Paper>
  );
}
