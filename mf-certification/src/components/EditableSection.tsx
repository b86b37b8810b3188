import type { ReactNode } from 'react';
import type { FormikValues } from 'formik';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import EditIcon from '@mui/icons-material/EditOutlined';
import type { PermissionKey } from '@sertifikasi/shared-contracts';
import { useCan } from '@sertifikasi/shared-auth';
import { RecordFormModal, type ResourceFormConfig, useFormModal } from '@sertifikasi/shared-ui';

export interface EditableSectionProps<T extends { id: string }, V extends FormikValues> {
  /** The section's heading and accessible name, e.g. 'Profile Klien'. */
  title: string;
  /** The record the section shows and edits. */
  record: T;
  /** The permission that shows the edit button (the API refuses the save without it). */
  permission: PermissionKey;
  /** The edit button's text, e.g. 'Ubah Profile'. */
  editLabel: string;
  /** The modal's title, e.g. 'Ubah Profile Client'. */
  editTitle: string;
  form: ResourceFormConfig<T, V>;
  /** The API path without '/api' the record is saved to (`<endpoint>/<id>`). */
  endpoint: string;
  entityLabel: string;
  onSaved: () => void;
  children: ReactNode;
}

/**
 * A detail page's section of one record: heading, an edit button for those allowed, the content,
 * and the edit modal (the same form as the list's).
 */
export function EditableSection<T extends { id: string }, V extends FormikValues>(
  props: EditableSectionProps<T, V>,
) {
  const canEdit = useCan(props.permission);
  const modal = useFormModal<T>();
  return (
    <Paper variant="outlined" component="section" aria-label={props.title} sx={{ p: 2 }}>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={1}
        sx={{ justifyContent: 'space-between', alignItems: { sm: 'center' }, mb: 2 }}
      >
        <Typography variant="h6" component="h2">
          {props.title}
        </Typography>
        {canEdit && (
          <Button variant="outlined" startIcon={<EditIcon />} onClick={() => modal.openEdit(props.record)}>
            {props.editLabel}
          </Button>
        )}
      </Stack>
      {props.children}
      <RecordFormModal<T, V>
        modal={modal}
        form={props.form}
        endpoint={props.endpoint}
        entityLabel={props.entityLabel}
        titles={{ edit: props.editTitle }}
        onSaved={props.onSaved}
      />
    </Paper>
  );
}
