import { useEffect, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { type FormikHelpers, useFormikContext } from 'formik';
import { profileSchema } from '@sertifikasi/shared-contracts';
import { notifyApiError, useAuth } from '@sertifikasi/shared-auth';
import {
  DetailField,
  DetailGrid,
  FormModal,
  PasswordInput,
  saveRecord,
  TextInput,
} from '@sertifikasi/shared-ui';
import { t } from '../i18n/id';

interface ProfileValues {
  name: string;
  username: string;
  email: string;
  password: string;
  current_password: string;
}

/** 'Password Saat Ini', shown once a new password is typed: changing it needs the current one. */
function CurrentPasswordInput() {
  const { values } = useFormikContext<ProfileValues>();
  if (!values.password) return null;
  return (
    <PasswordInput
      name="current_password"
      label={t.profile.currentPassword}
      required
      autoComplete="current-password"
    />
  );
}

/** 'Pengaturan Profil': the signed-in user's name and username, changed through 'Ubah Profil'. */
export function ProfilePage() {
  const profile = useAuth((s) => s.profile);
  const loadProfile = useAuth((s) => s.loadProfile);
  const loadUserInfo = useAuth((s) => s.loadUserInfo);
  const [open, setOpen] = useState(false);
  useEffect(() => {
    loadProfile().catch(notifyApiError);
  }, [loadProfile]);

  const save = async (values: ProfileValues, helpers: FormikHelpers<ProfileValues>) => {
    const { password, current_password, ...rest } = values;
    // The current password travels only with a new one.
    const body = password ? { ...rest, password, current_password } : rest;
    const result = await saveRecord({ endpoint: 'profile', mode: 'edit', body }, helpers);
    if (!result.ok) return;
    setOpen(false);
    await Promise.all([loadProfile(), loadUserInfo()]).catch(notifyApiError);
  };

  return (
    <Paper sx={{ p: 3, maxWidth: 640 }}>
      <Typography variant="h5" component="h2" gutterBottom>
        {t.profile.heading}
      </Typography>
      <Box sx={{ mb: 2 }}>
        <DetailGrid columns={1}>
          <DetailField label={t.profile.name} value={profile?.name} />
          <DetailField label={t.profile.username} value={profile?.username} />
          <DetailField label={t.profile.email} value={profile?.email} />
        </DetailGrid>
      </Box>
      <Button variant="contained" onClick={() => setOpen(true)} disabled={!profile}>
        {t.profile.edit}
      </Button>
      <FormModal<ProfileValues>
        open={open}
        title={t.profile.edit}
        width={650}
        onClose={() => setOpen(false)}
        initialValues={{
          name: profile?.name ?? '',
          username: profile?.username ?? '',
          email: profile?.email ?? '',
          password: '',
          current_password: '',
        }}
        validationSchema={profileSchema}
        onSubmit={save}
      >
        <Stack spacing={2} sx={{ pt: 1 }}>
          <TextInput name="name" label={t.profile.name} required />
          <TextInput name="username" label={t.profile.username} required autoComplete="username" />
          <TextInput
            name="email"
            label={t.profile.email}
            type="email"
            autoComplete="email"
            helperText={t.profile.emailHint}
          />
          <PasswordInput name="password" label={t.profile.password} helperText={t.profile.passwordHint} />
          <CurrentPasswordInput />
        </Stack>
      </FormModal>
    </Paper>
  );
}
