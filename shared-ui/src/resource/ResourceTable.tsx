import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TableSortLabel from '@mui/material/TableSortLabel';
import Typography from '@mui/material/Typography';
import { UI_TEXT } from '../i18n/id';
import { RowActions } from './RowActions';
import type { ResourceColumn, RowAction } from './types';
import type { SortState } from './useListState';
import { STICKY_END_CELL, WideTableContainer } from './WideTableContainer';

export interface ResourceTableProps<T extends { id: string }> {
  columns: readonly ResourceColumn<T>[];
  rows: readonly T[];
  /** A list call is running: a bar above the rows, or the 'Mempersiapkan Data' box before any rows. */
  loading: boolean;
  /** The current order: its column's header shows the direction (and aria-sort). */
  sort?: SortState | null;
  /** A sortable header (a column with `sortKey`) was pressed. */
  onSort?: (key: string) => void;
  /** The row actions (already resolved: see useRowActions); the 'Aksi' column shows when any. */
  actions?: readonly RowAction<T>[];
  /** 'Opps, Data Masih Kosong' by default. */
  emptyText?: string;
  /** Accessible name of the table. */
  label?: string;
}

/**
 * The list table: headers (sortable where a column has `sortKey`), the cells each column renders,
 * the row actions in a column kept at the right edge, the loading and empty boxes, and horizontal
 * scrolling with a hint when it is wider than the screen.
 */
export function ResourceTable<T extends { id: string }>({
  columns,
  rows,
  loading,
  sort = null,
  onSort,
  actions = [],
  emptyText = UI_TEXT.empty,
  label,
}: ResourceTableProps<T>) {
  const showActions = actions.length > 0;
  const columnCount = columns.length + (showActions ? 1 : 0);
  const firstLoad = loading && rows.length === 0;
  return (
    <>
      <Box sx={{ height: 4 }}>
        {loading && !firstLoad && <LinearProgress aria-label={UI_TEXT.refreshing} />}
      </Box>
      <WideTableContainer contentKey={`${columnCount}:${rows.length}:${loading}`} label={label}>
        <Table size="small" aria-busy={loading} aria-label={label}>
          <TableHead>
            <TableRow>
              {columns.map((column) => {
                const sorted = column.sortKey !== undefined && sort?.key === column.sortKey;
                return (
                  <TableCell
                    key={column.key ?? column.header}
                    align={column.align}
                    sx={{ width: column.width }}
                    sortDirection={sorted ? sort.order : false}
                  >
                    {column.sortKey !== undefined && onSort ? (
                      <TableSortLabel
                        active={sorted}
                        direction={sorted ? sort.order : 'asc'}
                        onClick={() => onSort(column.sortKey!)}
                      >
                        {column.header}
                      </TableSortLabel>
                    ) : (
                      column.header
                    )}
                  </TableCell>
                );
              })}
              {showActions && (
                <TableCell align="center" className={STICKY_END_CELL}>
                  {UI_TEXT.actions}
                </TableCell>
              )}
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.length === 0 ? (
              <TableRow>
                <TableCell colSpan={columnCount}>
                  <Stack
                    spacing={1}
                    sx={{ py: 6, alignItems: 'center', color: 'text.secondary' }}
                    role="status"
                  >
                    {firstLoad && <CircularProgress size={28} />}
                    <Typography>{firstLoad ? UI_TEXT.loading : emptyText}</Typography>
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
                      <RowActions row={row} actions={actions} />
                    </TableCell>
                  )}
                </TableRow>
              ))
            )}
          </TableBody>
        </Table>
      </WideTableContainer>
    </>
  );
}
