import { useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import Stack from '@mui/material/Stack';
import TableContainer from '@mui/material/TableContainer';
import Typography from '@mui/material/Typography';
import SwipeIcon from '@mui/icons-material/SwipeLeftOutlined';
import { UI_TEXT } from '../i18n/id';

/** Class of the cells that stay on the right edge while the table scrolls sideways (the action column). */
export const STICKY_END_CELL = 'sticky-end-cell';

/** Whether the box's content is wider than the box (a pixel of rounding allowed). */
function overflows(el: HTMLElement): boolean {
  return el.scrollWidth > el.clientWidth + 1;
}

export interface WideTableContainerProps {
  /** The MUI `<Table>`; cells with {@link STICKY_END_CELL} stay on the right edge. */
  children: ReactNode;
  /** Changes when the table's content may have changed width (rows, columns). */
  contentKey?: unknown;
  /** What the table shows (its own name): names the box while it scrolls; 'Tabel' by default. */
  label?: string;
}

/**
 * A table box that scrolls sideways on its own when the table is wider than the screen, so the page
 * itself never does. While it overflows, 'Geser untuk melihat kolom lain' shows above it, and the
 * cells marked {@link STICKY_END_CELL} (the action column) stay reachable on the right edge, with a
 * shadow where the other columns slide under them. A keyboard reaches it too: while it overflows the
 * box is a named region in the Tab order (the arrow keys then scroll it) with a visible focus ring.
 */
export function WideTableContainer({ children, contentKey, label = UI_TEXT.table }: WideTableContainerProps) {
  const box = useRef<HTMLDivElement>(null);
  const [overflowing, setOverflowing] = useState(false);
  // Measured on mount, when the box or the table resizes, on a window resize, and when the content
  // changes (new rows or columns can widen the table without resizing the box).
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    const measure = () => setOverflowing(overflows(el));
    measure();
    window.addEventListener('resize', measure);
    const observer = typeof ResizeObserver === 'function' ? new ResizeObserver(measure) : undefined;
    observer?.observe(el);
    if (el.firstElementChild) observer?.observe(el.firstElementChild);
    return () => {
      window.removeEventListener('resize', measure);
      observer?.disconnect();
    };
  }, [contentKey]);
  return (
    <>
      {overflowing && (
        <Stack
          direction="row"
          spacing={0.75}
          sx={{ px: 2, py: 0.5, alignItems: 'center', color: 'text.secondary' }}
        >
          <SwipeIcon fontSize="small" aria-hidden />
          <Typography variant="caption">{UI_TEXT.scrollHint}</Typography>
        </Stack>
      )}
      <TableContainer
        ref={box}
        {...(overflowing ? { role: 'region', 'aria-label': label, tabIndex: 0 } : {})}
        sx={{
          overflowX: 'auto',
          '&:focus-visible': { outline: '2px solid', outlineColor: 'primary.main', outlineOffset: -2 },
          [`& .${STICKY_END_CELL}`]: {
            position: 'sticky',
            right: 0,
            zIndex: 1,
            bgcolor: 'background.paper',
            boxShadow: overflowing ? '-6px 0 6px -4px rgba(0, 0, 0, 0.18)' : 'none',
          },
          [`& .MuiTableRow-hover:hover .${STICKY_END_CELL}`]: {
            backgroundImage: (th) =>
              `linear-gradient(${th.palette.action.hover}, ${th.palette.action.hover})`,
          },
        }}
      >
        {children}
      </TableContainer>
    </>
  );
}
