import { type FormEvent, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Navigate, useNavigate } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type LoginField, validateLogin } from '@sertifikasi/shared-contracts/portal';
import { LoginFailure, useAuth } from '@sertifikasi/shared-auth';
import { showToast } from '@sertifikasi/shared-ui/core';
import { takeBootSubmit } from '../boot-form';
import { loadMainLayout } from '../layouts/lazy';
import { LANDING } from '../routes';
import { t } from '../i18n/id';

/**
 * What was typed into the form login.html draws before the scripts arrive (src/index.html), and which
 * of its fields had the focus: read while React's first render of this page still has that form on
 * screen, which its commit then replaces.
 */
function typedBeforeScript(): { values: Record<LoginField, string>; focused?: LoginField } {
  const read = (id: LoginField) => {
    const input = document.querySelector(`.boot #${id}`);
    return input instanceof HTMLInputElement ? input.value : '';
  };
  const active = document.activeElement;
  const focused =
    active?.closest('.boot') && (active.id === 'username' || active.id === 'password')
      ? active.id
      : undefined;
  return { values: { username: read('username'), password: read('password') }, focused };
}

/** 'Login Sistem Sertifikasi': username and password, both required. */
export function LoginPage() {
  const login = useAuth((s) => s.login);
  const loadUserInfo = useAuth((s) => s.loadUserInfo);
  const token = useAuth((s) => s.token);
  const navigate = useNavigate();
  const [failure, setFailure] = useState<string | null>(null);
  const [typed] = useState(typedBeforeScript);
  const [values, setValues] = useState(typed.values);
  // A field's error shows once it has been left, or after a submit.
  const [touched, setTouched] = useState<Partial<Record<LoginField, boolean>>>({});
  const [submitted, setSubmitted] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  // Signed in: the form stays on screen until the landing page is drawn (its module may still be
  // loading), busy, so it neither looks idle nor takes a second sign-in.
  const [leaving, setLeaving] = useState(false);
  // The schema's rules and words without yup or a form library (shared-contracts/src/login.ts): the
  // login page draws before the signed-in code has loaded.
  const errors = validateLogin(values);
  // The caret stays where it was in the drawn form, in the same task as React's commit replaces that
  // form (no keystroke in between goes astray).
  const inputs = useRef<Partial<Record<LoginField, HTMLInputElement | null>>>({});
  useLayoutEffect(() => {
    const input = typed.focused && inputs.current[typed.focused];
    if (input) {
      input.focus();
      input.setSelectionRange(input.value.length, input.value.length);
    }
  }, [typed]);
  // The drawn form was submitted before this page took it over: sign in with what was typed (once,
  // StrictMode's second mount included).
  const [bootSubmit] = useState(takeBootSubmit);
  const autoSubmitted = useRef(false);
  const busy = submitting || leaving;

  const submit = async () => {
    setSubmitted(true);
    setTouched({ username: true, password: true });
    if (busy || errors.username || errors.password) return;
    setFailure(null);
    setSubmitting(true);
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
    } finally {
      setSubmitting(false);
    }
  };
  useEffect(() => {
    if (!bootSubmit || autoSubmitted.current) return;
    autoSubmitted.current = true;
    void submit();
    // Once, on the first mount: `submit` reads the values typed into the drawn form.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [bootSubmit]);
  // Already signed in (a bookmark, the back button): to the landing page. Not after signing in here:
  // the form stays until the landing page takes over, so no empty frame shows between the two.
  if (token && !submitted) return <Navigate to={LANDING} replace />;
  /** One labelled input bound to the form (its error shows once touched). */
  const field = (name: LoginField, label: string, type: string, autoComplete: string) => {
    const error = touched[name] ? errors[name] : undefined;
    return (
      <TextField
        id={name}
        name={name}
        type={type}
        label={label}
        autoComplete={autoComplete}
        fullWidth
        margin="normal"
        inputRef={(input: HTMLInputElement | null) => {
          inputs.current[name] = input;
        }}
        value={values[name]}
        onChange={(e) => setValues((v) => ({ ...v, [name]: e.target.value }))}
        onBlur={() => setTouched((t) => ({ ...t, [name]: true }))}
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
        onSubmit={(e: FormEvent<HTMLFormElement>) => {
          e.preventDefault();
          void submit();
        }}
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
