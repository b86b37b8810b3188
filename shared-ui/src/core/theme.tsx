import type { ReactNode } from 'react';
import CssBaseline from '@mui/material/CssBaseline';
import { createTheme, ThemeProvider, type Theme } from '@mui/material/styles';
import { indonesianComponents } from './locale';

/** The portal's MUI theme, with MUI's own texts in Indonesian. */
export const theme: Theme = createTheme({
  palette: {
    primary: { main: '#1565c0' },
    secondary: { main: '#00897b' },
    background: { default: '#f4f6f8' },
  },
  shape: { borderRadius: 8 },
  typography: {
    fontFamily: '"Inter", "Roboto", "Helvetica", "Arial", sans-serif',
    button: { textTransform: 'none', fontWeight: 600 },
  },
  components: {
    ...indonesianComponents,
    MuiTableCell: { styleOverrides: { head: { fontWeight: 700 } } },
  },
});

export interface AppThemeProviderProps {
  children: ReactNode;
  /** Adds MUI's CssBaseline; the shell renders it once, modules rendered inside the shell need not. */
  baseline?: boolean;
}

/** Provides the portal theme (and, by default, CssBaseline) to its children. */
export function AppThemeProvider({ children, baseline = true }: AppThemeProviderProps) {
  return (
    <ThemeProvider theme={theme}>
      {baseline && <CssBaseline />}
      {children}
    </ThemeProvider>
  );
}
