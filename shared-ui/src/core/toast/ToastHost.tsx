import { useEffect } from 'react';
import { useStore } from 'zustand';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Portal from '@mui/material/Portal';
import { UI_TEXT } from '../../i18n/id';
import { connectApiErrors, hideToast, toastStore, type ToastType } from './toast';

const SEVERITY = { warning: 'warning', danger: 'error', success: 'success' } as const satisfies Record<
  ToastType,
  'warning' | 'error' | 'success'
>;

/**
 * The toast alert at the top right (docs/rules.md#screens; on a phone at the bottom, where it
 * covers neither the header nor a full-screen dialog's title): a title by type ('Peringatan', 'Gagal',
 * 'Berhasil') and the text, role="alert", gone after 2.5 s. Render it once, in the shell; it also
 * connects shared-auth's API error notifier to the toast.
 */
export function ToastHost() {
  const toast = useStore(toastStore, (s) => s.toast);

  useEffect(() => {
    connectApiErrors();
  }, []);

  if (!toast) return null;
  // A fresh portal at the end of <body> for each toast: an open dialog hides everything that was there
  // before it from assistive technology (aria-hidden), and the toast must still be announced.
  return (
    <Portal key={toast.id}>
      <Box
        sx={{
          position: 'fixed',
          top: { xs: 'auto', sm: 16 },
          bottom: { xs: 16, sm: 'auto' },
          right: 16,
          zIndex: (theme) => theme.zIndex.snackbar,
          width: 360,
          maxWidth: 'calc(100vw - 32px)',
        }}
      >
        <Alert
          role="alert"
          variant="filled"
          severity={SEVERITY[toast.type]}
          onClose={hideToast}
          closeText={UI_TEXT.close}
          sx={{ boxShadow: 3 }}
        >
          <AlertTitle>{UI_TEXT.toastTitle[toast.type]}</AlertTitle>
          {toast.text}
        </Alert>
      </Box>
    </Portal>
  );
}
