import { useState } from 'react';
import { Navigate, useNavigate } from 'react-router-dom';
import { useFormik } from 'formik';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { loginSchema } from '@sertifikasi/shared-contracts';
import { LoginFailure, useAuth } from '@sertifikasi/shared-auth';
import { showToast } from '@sertifikasi/shared-ui/core';
import { loadMainLayout } from '../layouts/lazy';
import { LANDING } from '../routes';
import { t } from '../i18n/id';

/** 'Login Sistem Sertifikasi': username and password, both required. */
export function LoginPage() {
  const login = useAuth((s) => s.login);
  const loadUserInfo = useAuth((s) => s.loadUserInfo);
  const token = useAuth((s) => s.token);
  const navigate = useNavigate();
  const [failure, setFailure] = useState<string | null>(null);
  // Signed in: the form stays on screen until the landing page is drawn (its module may still be
  // loading), busy, so it neither looks idle nor takes a second sign-in.
  const [leaving, setLeaving] = useState(false);
  const form = useFormik({
    initialValues: { username: '', password: '' },
    validationSchema: loginSchema,
    onSubmit: async (values) => {
      setFailure(null);
      // The layout's code loads while the sign-in runs (should that fail, the route loads it again).
      const layout = loadMainLayout().catch(() => undefined);
      try {
        await login(values.username, values.password);
        setLeaving(true);
        // The landing page opens with its layout, menu and company at once (a failure here is
        // reported by the guard, which asks again).
        await Promise.allSettled([loadUserInfo(), layout]);
        await navigate(LANDING, { replace: true });
      } catch (err) {
        setLeaving(false);
        const message = err instanceof LoginFailure ? err.message : 'Data user tidak ditemukan';
        setFailure(message);
        showToast('warning', message);
      }
    },
  });
  // Already signed in (a bookmark, the back button): to the landing page. Not after signing in here:
  // the form stays until the landing page takes over, so no empty frame shows between the two.
  if (token && form.submitCount === 0) return <Navigate to={LANDING} replace />;
  const busy = form.isSubmitting || leaving;
  /** One labelled input bound to the form (its error shows once touched). */
  const field = (name: 'username' | 'password', label: string, type: string, autoComplete: string) => {
    const error = form.touched[name] ? form.errors[name] : undefined;
    return (
      <TextField
        id={name}
        name={name}
        type={type}
        label={label}
        autoComplete={autoComplete}
        fullWidth
        margin="normal"
        value={form.values[name]}
        onChange={form.handleChange}
        onBlur={form.handleBlur}
        error={!!error}
        helperText={error}
      />
    );
  };
  return (
    <Box sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center', bgcolor: 'grey.100', p: 2 }}>
      <Paper
        component="form"
        noValidate
        onSubmit={form.handleSubmit}
        sx={{ p: 4, width: '100%', maxWidth: 400 }}
      >
        <Typography variant="h5" component="h1" gutterBottom>
          {t.login.heading}
        </Typography>
        {failure && (
          <Alert severity="warning" sx={{ mb: 2 }}>
            {failure}
          </Alert>
        )}
        {field('username', t.login.username, 'text', 'username')}
        {field('password', t.login.password, 'password', 'current-password')}
        <Button
          type="submit"
          variant="contained"
          fullWidth
          sx={{ mt: 2 }}
          disabled={busy}
          startIcon={busy ? <CircularProgress size={16} color="inherit" /> : undefined}
        >
          {busy ? t.login.submitting : t.login.submit}
        </Button>
      </Paper>
    </Box>
  );
}
