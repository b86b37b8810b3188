import type { Components, Theme } from '@mui/material/styles';

/**
 * MUI's own texts in Indonesian, for the components the portal uses. Written here rather than
 * imported from `@mui/material/locale`: that module holds every language MUI ships, and as a shared
 * Module Federation module it cannot be tree-shaken, so importing it would put all of them on the
 * login page.
 */
export const indonesianComponents: Components<Theme> = {
  MuiAlert: { defaultProps: { closeText: 'Tutup' } },
  MuiAutocomplete: {
    defaultProps: {
      clearText: 'Hapus',
      closeText: 'Tutup',
      loadingText: 'Memuat…',
      noOptionsText: 'Tidak ada pilihan',
      openText: 'Buka',
    },
  },
  MuiBreadcrumbs: { defaultProps: { expandText: 'Tampilkan jalur' } },
  MuiPagination: {
    defaultProps: {
      'aria-label': 'Navigasi halaman',
      getItemAriaLabel: (type, page, selected) => {
        if (type === 'page') return `${selected ? '' : 'Ke '}halaman ${page}`;
        if (type === 'first') return 'Ke halaman pertama';
        if (type === 'last') return 'Ke halaman terakhir';
        if (type === 'next') return 'Ke halaman berikutnya';
        return 'Ke halaman sebelumnya';
      },
    },
  },
  MuiTablePagination: {
    defaultProps: {
      labelRowsPerPage: 'Baris per halaman:',
      labelDisplayedRows: ({ from, to, count }) =>
        `${from}–${to} dari ${count !== -1 ? count : `lebih dari ${to}`}`,
    },
  },
};
