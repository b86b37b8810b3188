import { Link as RouterLink } from 'react-router-dom';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import EditIcon from '@mui/icons-material/EditOutlined';
import VisibilityIcon from '@mui/icons-material/VisibilityOutlined';
import { can, useAuth } from '@sertifikasi/shared-auth';
import { UI_TEXT } from '../i18n/id';
import type { BuiltInAction, ResourceActionEntry, RowAction } from './types';

/** What the built-in actions do on a screen (an absent one is not offered). */
export interface BuiltInHandlers<T> {
  /** The record's page (Detail). */
  detailHref?: (row: T) => string;
  /** Opens the edit form (Ubah); offered only with `edit` permission. */
  onEdit?: (row: T) => void;
  /** Asks to delete (Hapus); offered only with `delete` permission. */
  onDelete?: (row: T) => void;
}

export const DEFAULT_ACTIONS: readonly BuiltInAction[] = ['detail', 'edit', 'delete'];

function builtIn<T>(name: BuiltInAction, handlers: BuiltInHandlers<T>, label?: string): RowAction<T> | null {
  switch (name) {
    case 'detail':
      return handlers.detailHref
        ? {
            key: 'detail',
            label: label ?? UI_TEXT.detail,
            icon: <VisibilityIcon fontSize="small" />,
            color: 'info',
            href: handlers.detailHref,
          }
        : null;
    case 'edit':
      return handlers.onEdit
        ? {
            key: 'edit',
            label: label ?? UI_TEXT.edit,
            icon: <EditIcon fontSize="small" />,
            color: 'primary',
            onClick: handlers.onEdit,
          }
        : null;
    case 'delete':
      return handlers.onDelete
        ? {
            key: 'delete',
            label: label ?? UI_TEXT.delete,
            icon: <DeleteIcon fontSize="small" />,
            color: 'error',
            onClick: handlers.onDelete,
          }
        : null;
  }
}

/**
 * Resolves a list of action entries: built-ins by name with the screen's handlers (leave a handler
 * out when the user may not use it), the config's own actions when the user holds their permission.
 */
export function useRowActions<T>(
  entries: readonly ResourceActionEntry<T>[] = DEFAULT_ACTIONS,
  handlers: BuiltInHandlers<T>,
): RowAction<T>[] {
  const roles = useAuth((s) => s.roles);
  return entries.flatMap((entry) => {
    const action =
      typeof entry === 'string'
        ? builtIn(entry, handlers)
        : 'action' in entry
          ? builtIn(entry.action, handlers, entry.label)
          : entry;
    if (!action || (action.permission && !can(roles, action.permission))) return [];
    return [action];
  });
}

export interface RowActionsProps<T> {
  row: T;
  actions: readonly RowAction<T>[];
}

/** A row's (or a card's) actions as small icon buttons, each named by its label (also its tooltip). */
export function RowActions<T>({ row, actions }: RowActionsProps<T>) {
  return (
    <Stack direction="row" spacing={0.5} sx={{ justifyContent: 'center', display: 'inline-flex' }}>
      {actions
        .filter((a) => !a.hidden?.(row))
        .map((action) => {
          const icon = action.icon ?? action.label.slice(0, 1);
          const common = {
            'aria-label': action.label,
            size: 'small',
            color: action.color ?? 'default',
          } as const;
          return (
            <Tooltip key={action.key} title={action.label}>
              {action.href ? (
                <IconButton {...common} component={RouterLink} to={action.href(row)}>
                  {icon}
                </IconButton>
              ) : (
                <IconButton {...common} onClick={() => action.onClick?.(row)}>
                  {icon}
                </IconButton>
              )}
            </Tooltip>
          );
        })}
    </Stack>
  );
}
