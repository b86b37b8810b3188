import { useMemo } from 'react';
import { useField } from 'formik';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import {
  ACTION_LABELS,
  ACTION_MODULES,
  ACTIONS,
  type ActionModule,
  MODULE_KEYS,
  MODULE_LABELS,
  type Permission,
} from '@sertifikasi/shared-contracts';
import { t } from '../i18n/id';

const COLUMNS = ['view', ...ACTIONS] as const;

/**
 * The role form's permission grid (docs/rules.md#permissions): one row per module, columns Lihat /
 * Tambah / Ubah / Hapus, and 'Akses Penuh' selecting everything. The field holds permission ids.
 */
export function PermissionGrid({
  permissions,
  name = 'permission',
}: {
  permissions: Permission[];
  name?: string;
}) {
  const [field, meta, helpers] = useField<string[]>(name);
  const selected = new Set(field.value ?? []);
  const idOf = useMemo(() => new Map(permissions.map((p) => [p.name, p.id])), [permissions]);
  const allIds = permissions.map((p) => p.id);
  const all = allIds.length > 0 && allIds.every((id) => selected.has(id));
  const set = (ids: Iterable<string>) => void helpers.setValue([...new Set(ids)]);
  const toggle = (id: string, on: boolean) => {
    const next = new Set(selected);
    if (on) next.add(id);
    else next.delete(id);
    set(next);
  };
  return (
    <>
      <FormControlLabel
        label={t.roles.fullAccess}
        control={
          <Checkbox
            checked={all}
            indeterminate={!all && selected.size > 0}
            onChange={(e) => set(e.target.checked ? allIds : [])}
          />
        }
      />
      <Table size="small" aria-label={t.roles.permissions}>
        <TableHead>
          <TableRow>
            <TableCell>{t.roles.module}</TableCell>
            {COLUMNS.map((c) => (
              <TableCell key={c} align="center">
                {ACTION_LABELS[c]}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {MODULE_KEYS.map((module) => (
            <TableRow key={module}>
              <TableCell>{MODULE_LABELS[module]}</TableCell>
              {COLUMNS.map((action) => {
                const key =
                  action === 'view'
                    ? module
                    : (ACTION_MODULES as readonly string[]).includes(module)
                      ? `${module as ActionModule}:${action}`
                      : null;
                const id = key ? idOf.get(key) : undefined;
                return (
                  <TableCell key={action} align="center" padding="checkbox">
                    {id && (
                      <Checkbox
                        checked={selected.has(id)}
                        onChange={(e) => toggle(id, e.target.checked)}
                        slotProps={{
                          input: { 'aria-label': `${MODULE_LABELS[module]} - ${ACTION_LABELS[action]}` },
                        }}
                      />
                    )}
                  </TableCell>
                );
              })}
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {meta.error && <FormHelperText error>{String(meta.error)}</FormHelperText>}
    </>
  );
}
