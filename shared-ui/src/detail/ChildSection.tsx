import { useState, type ReactNode } from 'react';
import type { FormikValues } from 'formik';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import { actionKey, type ActionModule } from '@sertifikasi/shared-contracts';
import { useAuth, can } from '@sertifikasi/shared-auth';
import { UI_FORMAT, UI_TEXT } from '../i18n/id';
import { DeleteDialog } from '../resource/DeleteDialog';
import { RecordFormModal, useFormModal } from '../resource/RecordFormModal';
import { RowActions, useRowActions } from '../resource/RowActions';
import type { ResourceActionEntry, ResourceFormConfig } from '../resource/types';

export interface ChildSectionProps<C extends { id: string }, V extends FormikValues> {
  /** The section's heading (h2), e.g. 'Skema Sertifikasi'. */
  title: string;
  /** The child records, one card each. */
  items: readonly C[];
  /** A card's heading and accessible name, e.g. the scheme's certificate number. */
  itemTitle: (item: C) => string;
  /** A card's content (DetailGrid, badges...). */
  renderItem: (item: C) => ReactNode;
  /** What one child is called: 'Tambah <label>' (the add button and modal), 'Ubah <label>'. */
  entityLabel: string;
  /** The API path without '/api': POST `<endpoint>`, PUT/DELETE `<endpoint>/<id>`. */
  endpoint: string;
  /** The add/edit form (the same config a list uses); `toBody` adds the parent's id. */
  form: ResourceFormConfig<C, V>;
  /** Permission module: `<module>:create` shows Tambah, `:edit` Ubah, `:delete` Hapus. */
  module: ActionModule;
  /** A card's actions in order; `['edit', 'delete']` by default; add the config's own (e.g. a QR download). */
  actions?: readonly ResourceActionEntry<C>[];
  /** After a child was added, changed or deleted: reload the parent. */
  onChange: () => void;
  /** Below each card's heading, beside the actions (e.g. a status badge). */
  itemBadge?: (item: C) => ReactNode;
  /** Shown when there are no children; 'Opps, Data Masih Kosong' by default. */
  emptyText?: string;
  /** Company-owned children: a new one's empty `company_id` is the header's company. */
  companyScoped?: boolean;
}

/**
 * A section of a detail page listing child records as cards (a client's schemes), with 'Tambah
 * <label>', and Ubah/Hapus on each card gated by the module's action permissions, through the same
 * form modal and save/delete calls as the list screens.
 */
export function ChildSection<C extends { id: string }, V extends FormikValues>({
  title,
  items,
  itemTitle,
  renderItem,
  entityLabel,
  endpoint,
  form,
  module,
  actions = ['edit', 'delete'],
  onChange,
  itemBadge,
  emptyText = UI_TEXT.empty,
  companyScoped = false,
}: ChildSectionProps<C, V>) {
  const roles = useAuth((s) => s.roles);
  const modal = useFormModal<C>();
  const [toDelete, setToDelete] = useState<C | null>(null);
  const cardActions = useRowActions<C>(actions, {
    ...(can(roles, actionKey(module, 'edit')) ? { onEdit: modal.openEdit } : {}),
    ...(can(roles, actionKey(module, 'delete')) ? { onDelete: setToDelete } : {}),
  });

  return (
    <Paper variant="outlined" component="section" aria-label={title} sx={{ p: 2 }}>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={1}
        sx={{ justifyContent: 'space-between', alignItems: { sm: 'center' }, mb: 2 }}
      >
        <Typography variant="h6" component="h2">
          {title}
        </Typography>
        {can(roles, actionKey(module, 'create')) && (
          <Button variant="contained" startIcon={<AddIcon />} onClick={modal.openCreate}>
            {UI_FORMAT.addTitle(entityLabel)}
          </Button>
        )}
      </Stack>
      {items.length === 0 ? (
        <Typography role="status" color="text.secondary" sx={{ py: 4, textAlign: 'center' }}>
          {emptyText}
        </Typography>
      ) : (
        <Stack spacing={2}>
          {items.map((item) => (
            <Card key={item.id} variant="outlined" component="article" aria-label={itemTitle(item)}>
              <CardContent>
                <Stack
                  direction="row"
                  spacing={1}
                  sx={{ justifyContent: 'space-between', alignItems: 'flex-start', mb: 1.5 }}
                >
                  <Box sx={{ minWidth: 0 }}>
                    <Typography
                      variant="subtitle1"
                      component="h3"
                      sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}
                    >
                      {itemTitle(item)}
                    </Typography>
                    {itemBadge?.(item)}
                  </Box>
                  {cardActions.length > 0 && <RowActions row={item} actions={cardActions} />}
                </Stack>
                {renderItem(item)}
              </CardContent>
            </Card>
          ))}
        </Stack>
      )}
      <RecordFormModal<C, V>
        modal={modal}
        form={form}
        endpoint={endpoint}
        entityLabel={entityLabel}
        companyScoped={companyScoped}
        onSaved={onChange}
      />
      <DeleteDialog<C>
        target={toDelete}
        path={(item) => `${endpoint}/${item.id}`}
        onClose={() => setToDelete(null)}
        onDeleted={onChange}
      />
    </Paper>
  );
}
