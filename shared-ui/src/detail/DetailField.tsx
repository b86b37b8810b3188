import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { UI_TEXT } from '../i18n/id';

export interface DetailGridProps {
  children: ReactNode;
  /** Columns from the `md` breakpoint up (one column on phones); 2 by default. */
  columns?: 1 | 2 | 3;
}

/** Label/value pairs of a record (a description list: `term` and `definition` roles). */
export function DetailGrid({ children, columns = 2 }: DetailGridProps) {
  return (
    <Box
      component="dl"
      sx={{
        m: 0,
        display: 'grid',
        gridTemplateColumns: { xs: '1fr', md: `repeat(${columns}, minmax(0, 1fr))` },
        columnGap: 3,
        rowGap: 2,
      }}
    >
      {children}
    </Box>
  );
}

const isEmpty = (value: unknown) =>
  value === null ||
  value === undefined ||
  value === false ||
  (typeof value === 'string' && value.trim() === '');

export interface DetailFieldProps {
  /** e.g. 'Nomor Sertifikat'. */
  label: string;
  /** Text, a number, or an element (a badge, a link); '-' when empty (null, undefined, blank text). */
  value?: ReactNode;
  /** Spans every column of the grid (long text, an image). */
  wide?: boolean;
}

/** One label with its value inside a {@link DetailGrid}; an empty value shows '-'. */
export function DetailField({ label, value, wide = false }: DetailFieldProps) {
  return (
    <Box sx={{ minWidth: 0, ...(wide ? { gridColumn: '1 / -1' } : {}) }}>
      <Typography component="dt" variant="caption" color="text.secondary">
        {label}
      </Typography>
      <Typography
        component="dd"
        variant="body2"
        sx={{ m: 0, overflowWrap: 'anywhere', whiteSpace: 'pre-line' }}
      >
        {isEmpty(value) ? UI_TEXT.dash : value}
      </Typography>
    </Box>
  );
}
