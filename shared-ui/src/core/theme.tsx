import type { ReactNode } from 'react';
import CssBaseline from '@mui/material/CssBaseline';
import { createTheme, ThemeProvider, type Theme } from '@mui/material/styles';
import { indonesianComponents } from './locale';

/** The outline every focused control shows when reached by keyboard (WCAG 2.4.7). */
const FOCUS_RING = { outline: '2px solid #1565c0', outlineOffset: 2 } as const;
/** The same, drawn inside: for controls that fill their row (menu links, list options). */
const FOCUS_RING_INSIDE = { ...FOCUS_RING, outlineOffset: -2 } as const;

/**
 * The portal's MUI theme, with MUI's own texts in Indonesian. Every colour that carries text (a
 * filled chip or button with its contrast text, or coloured text on the page) reaches WCAG AA's
 * 4.5:1 on white and on the page background: MUI's own secondary, warning and info do not, so
 * darker shades of the same hues replace them (shared-ui's theme test checks each).
 */
export const theme: Theme = createTheme({
  palette: {
    primary: { main: '#1565c0' },
    secondary: { main: '#00796b' },
    info: { main: '#0270a8' },
    warning: { main: '#b34700' },
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
    // MUI marks a keyboard focus with a faint background only: draw a ring.
    MuiButtonBase: { styleOverrides: { root: { '&.Mui-focusVisible': FOCUS_RING } } },
    MuiListItemButton: { styleOverrides: { root: { '&.Mui-focusVisible': FOCUS_RING_INSIDE } } },
    MuiMenuItem: { styleOverrides: { root: { '&.Mui-focusVisible': FOCUS_RING_INSIDE } } },
    MuiLink: { styleOverrides: { root: { '&:focus-visible': FOCUS_RING } } },
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
