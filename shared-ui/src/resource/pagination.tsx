import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import ChevronLeft from '@mui/icons-material/ChevronLeft';
import ChevronRight from '@mui/icons-material/ChevronRight';
import { PAGINATION_OFFSET } from '@sertifikasi/shared-contracts';
import { formatNumber } from '../format';
import { UI_FORMAT, UI_TEXT } from '../i18n/id';

/** The page numbers shown around `current`: current - offset .. current + offset, within 1..last. */
export function pageWindow(current: number, last: number, offset: number = PAGINATION_OFFSET): number[] {
  const from = Math.max(1, current - offset);
  const to = Math.min(Math.max(last, 1), current + offset);
  const pages: number[] = [];
  for (let page = from; page <= to; page++) pages.push(page);
  return pages;
}

export interface ListPaginationProps {
  current: number;
  last: number;
  from: number | null;
  to: number | null;
  total: number;
  /** The list's `total_capped`: the total is a floor (a search matched more), 'lebih dari 10.000'. */
  capped?: boolean | undefined;
  onPage: (page: number) => void;
  disabled?: boolean;
}

/**
 * The list footer: 'Menampilkan 1 - 20 dari 42 data' ('... dari lebih dari 10.000 data' when the
 * total is capped, docs/rules.md#large-registers) and the page buttons (the window of ±4 around the
 * current page; previous and next only when there is such a page).
 */
export function ListPagination({
  current,
  last,
  from,
  to,
  total,
  capped,
  onPage,
  disabled,
}: ListPaginationProps) {
  const count = capped ? UI_FORMAT.moreThan(formatNumber(total)) : formatNumber(total);
  return (
    <Stack
      direction={{ xs: 'column', sm: 'row' }}
      spacing={1}
      sx={{ alignItems: { sm: 'center' }, justifyContent: 'space-between', p: 2 }}
    >
      <Typography variant="body2" color="text.secondary">
        {from !== null && to !== null && total > 0
          ? UI_FORMAT.summary(formatNumber(from), formatNumber(to), count)
          : null}
      </Typography>
      {last > 1 && (
        <Box component="nav" aria-label={UI_TEXT.paginationLabel}>
          <Stack direction="row" spacing={0.5} sx={{ flexWrap: 'wrap' }}>
            {current > 1 && (
              <Button
                size="small"
                variant="outlined"
                aria-label={UI_TEXT.previousPage}
                title={UI_TEXT.previousPage}
                onClick={() => onPage(current - 1)}
                disabled={disabled}
                sx={{ minWidth: 36 }}
              >
                <ChevronLeft fontSize="small" />
              </Button>
            )}
            {pageWindow(current, last).map((page) => (
              <Button
                key={page}
                size="small"
                variant={page === current ? 'contained' : 'outlined'}
                aria-label={UI_FORMAT.page(page)}
                aria-current={page === current ? 'page' : undefined}
                onClick={() => page !== current && onPage(page)}
                disabled={disabled}
                sx={{ minWidth: 36 }}
              >
                {page}
              </Button>
            ))}
            {current < last && (
              <Button
                size="small"
                variant="outlined"
                aria-label={UI_TEXT.nextPage}
                title={UI_TEXT.nextPage}
                onClick={() => onPage(current + 1)}
                disabled={disabled}
                sx={{ minWidth: 36 }}
              >
                <ChevronRight fontSize="small" />
              </Button>
            )}
          </Stack>
        </Box>
      )}
    </Stack>
  );
}
