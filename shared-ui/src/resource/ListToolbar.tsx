import type { ChangeEvent, ReactNode } from 'react';
import InputAdornment from '@mui/material/InputAdornment';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import SearchIcon from '@mui/icons-material/Search';
import { PAGE_SIZES, type PageSize } from '@sertifikasi/shared-contracts';
import { UI_TEXT } from '../i18n/id';

export interface ListToolbarProps {
  /** The heading (h2), e.g. 'Akreditasi'. */
  title: string;
  /** The search box: its text, and its placeholder and accessible name (e.g. 'Cari Akreditasi'). */
  search?: { value: string; onChange: (text: string) => void; placeholder: string };
  /** The 'Data per halaman' choice (20, 50, 100, 200). */
  pageSize?: { value: PageSize; onChange: (size: PageSize) => void };
  /** Buttons at the end (e.g. 'Tambah ...'). */
  children?: ReactNode;
}

/** The bar above a list: the heading, the search box, the page size and the screen's buttons. */
export function ListToolbar({ title, search, pageSize, children }: ListToolbarProps) {
  const onPageSize = (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
    const size = Number(event.target.value);
    if (pageSize && (PAGE_SIZES as readonly number[]).includes(size)) pageSize.onChange(size as PageSize);
  };
  return (
    <Stack
      direction={{ xs: 'column', md: 'row' }}
      spacing={2}
      sx={{ p: 2, alignItems: { md: 'center' }, justifyContent: 'space-between' }}
    >
      <Typography variant="h6" component="h2">
        {title}
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ alignItems: { sm: 'center' } }}>
        {search && (
          <TextField
            type="search"
            name="search"
            size="small"
            value={search.value}
            onChange={(event) => search.onChange(event.target.value)}
            placeholder={search.placeholder}
            slotProps={{
              htmlInput: { 'aria-label': search.placeholder },
              input: {
                startAdornment: (
                  <InputAdornment position="start">
                    <SearchIcon fontSize="small" />
                  </InputAdornment>
                ),
              },
            }}
          />
        )}
        {pageSize && (
          <TextField
            select
            name="paginate"
            size="small"
            label={UI_TEXT.pageSize}
            value={pageSize.value}
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
        )}
        {children}
      </Stack>
    </Stack>
  );
}
