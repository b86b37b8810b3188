import { useState, type ReactNode } from 'react';
import { Form, Formik, type FormikHelpers, type FormikValues } from 'formik';
import type { AnyObjectSchema } from 'yup';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import CloseIcon from '@mui/icons-material/Close';
import { UI_TEXT } from '../i18n/id';

/** Default modal width in pixels. */
export const DEFAULT_MODAL_WIDTH = 600;

export interface FormModalProps<V extends FormikValues> {
  open: boolean;
  /** The dialog's title and accessible name, e.g. 'Tambah User'. */
  title: string;
  /** Esc, the close button, or a click outside (ignored while saving). */
  onClose: () => void;
  initialValues: V;
  /** The yup schema; its messages (Indonesian, from shared-contracts) show under the fields. */
  validationSchema?: AnyObjectSchema;
  /** Runs on a valid submit; the save button reads 'Menyimpan...' and is disabled until it settles. */
  onSubmit: (values: V, helpers: FormikHelpers<V>) => void | Promise<unknown>;
  /** The form fields (TextInput, SelectInput, ...); they read and write the formik values by name. */
  children: ReactNode;
  /** Width of the dialog, e.g. 650 or '80vw' (never wider than the screen; the whole screen below 600 px); 600 by default. */
  width?: number | string;
  /** A new key starts the form again from `initialValues` (e.g. one per opening). */
  formKey?: string | number;
}

/** Below the `sm` breakpoint (600 px) a form dialog takes the whole screen. */
export function useFullScreenDialog(): boolean {
  const theme = useTheme();
  return useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
}

/**
 * A real dialog (role "dialog", named by its title) holding a formik form: focus moves into it when
 * it opens and back to what opened it when it closes. The same form serves Tambah and Ubah. The form
 * starts again from `initialValues` on each opening (a closed dialog unmounts its content), so a
 * saved or abandoned form leaves nothing behind.
 */
export function FormModal<V extends FormikValues>({
  open,
  title,
  onClose,
  initialValues,
  validationSchema,
  onSubmit,
  children,
  width = DEFAULT_MODAL_WIDTH,
  formKey,
}: FormModalProps<V>) {
  const [saving, setSaving] = useState(false);
  const fullScreen = useFullScreenDialog();
  const submit = async (values: V, helpers: FormikHelpers<V>) => {
    setSaving(true);
    try {
      await onSubmit(values, helpers);
    } finally {
      setSaving(false);
    }
  };
  return (
    <Dialog
      open={open}
      onClose={saving ? undefined : onClose}
      maxWidth={false}
      fullScreen={fullScreen}
      scroll="paper"
      slotProps={{ paper: { sx: fullScreen ? {} : { width, maxWidth: 'calc(100% - 32px)' } } }}
    >
      <DialogTitle sx={{ pr: 7 }}>{title}</DialogTitle>
      <IconButton
        aria-label={UI_TEXT.close}
        title={UI_TEXT.close}
        onClick={onClose}
        disabled={saving}
        sx={{ position: 'absolute', right: 8, top: 8 }}
      >
        <CloseIcon />
      </IconButton>
      <Formik<V>
        key={formKey}
        initialValues={initialValues}
        validationSchema={validationSchema}
        onSubmit={submit}
      >
        {({ isSubmitting }) => (
          <Form noValidate style={{ display: 'contents' }}>
            <DialogContent dividers>
              <Stack spacing={2.5} sx={{ pt: 1 }}>
                {children}
              </Stack>
            </DialogContent>
            <DialogActions sx={{ px: 3, py: 2 }}>
              <Button
                type="submit"
                variant="contained"
                disabled={isSubmitting}
                startIcon={isSubmitting ? <CircularProgress size={16} color="inherit" /> : undefined}
              >
                {isSubmitting ? UI_TEXT.saving : UI_TEXT.save}
              </Button>
            </DialogActions>
          </Form>
        )}
      </Formik>
    </Dialog>
  );
}
