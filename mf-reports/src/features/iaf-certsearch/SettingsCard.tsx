import { Form, Formik } from 'formik';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import {
  IAF_MESSAGES,
  iafSettingsInputSchema,
  type IafSettings,
  type IafSettingsInput,
} from '@sertifikasi/shared-contracts';
import { PasswordInput, SwitchInput, UI_TEXT, useSaveRecord, type FetchState } from '@sertifikasi/shared-ui';
import { t } from '../../i18n/id';

interface Values {
  enabled: boolean;
  api_key: string;
}

/**
 * The contract's checks (Kunci API at most 500 characters, no control characters), and the API's
 * refusal asked first: switching on needs a key, typed here or stored.
 */
const schemaFor = (hasKey: boolean) =>
  iafSettingsInputSchema.omit(['company_id']).test('key-needed', IAF_MESSAGES.noKey, function check(v) {
    if (v.enabled && !hasKey && !v.api_key?.trim())
      return this.createError({ path: 'api_key', message: IAF_MESSAGES.noKey });
    return true;
  });

/**
 * 'Pengaturan Akun': the scheduled upload on or off, and the key ('Kunci API', write-only: the form
 * says whether one is stored, never shows it; left empty it keeps the stored one). Saved with the
 * shared save (its toasts, a 422 onto the fields); the field is emptied after each save.
 */
export function SettingsCard({
  companyId,
  settings,
}: {
  companyId: string;
  settings: FetchState<IafSettings>;
}) {
  const { save, saving } = useSaveRecord<IafSettings>();
  const data = settings.data;
  return (
    <Paper component="section" variant="outlined" aria-labelledby="iaf-settings" sx={{ p: 2 }}>
      <Stack spacing={2}>
        <Typography id="iaf-settings" variant="h6" component="h2">
          {t.iaf.settings}
        </Typography>
        {settings.failure && (
          <Alert severity="error" role="alert">
            {UI_TEXT.loadFailed}
          </Alert>
        )}
        {!data && !settings.failure && <Skeleton variant="rounded" height={120} />}
        {data && (
          <Formik<Values>
            key={`${data.enabled}:${data.has_key}`}
            initialValues={{ enabled: data.enabled, api_key: '' }}
            validationSchema={schemaFor(data.has_key)}
            onSubmit={async (values, helpers) => {
              const key = values.api_key.trim();
              const body: IafSettingsInput = {
                company_id: companyId,
                enabled: values.enabled,
                ...(key ? { api_key: key } : {}),
              };
              const saved = await save<Values>(
                { endpoint: 'iaf-certsearch/settings', mode: 'edit', body },
                helpers,
              );
              if (saved.ok) {
                settings.setData(saved.record);
                helpers.resetForm({ values: { enabled: saved.record.enabled, api_key: '' } });
              }
            }}
          >
            <Form noValidate aria-label={t.iaf.settings}>
              <Stack spacing={2}>
                <SwitchInput
                  name="enabled"
                  label={t.iaf.enabled}
                  helperText={t.iaf.enabledHelp}
                  onValue={true}
                  offValue={false}
                />
                <PasswordInput
                  name="api_key"
                  label={t.iaf.apiKey}
                  helperText={data.has_key ? t.iaf.keyStored : t.iaf.keyMissing}
                />
                <Button
                  type="submit"
                  variant="contained"
                  disabled={saving}
                  startIcon={saving ? <CircularProgress size={16} color="inherit" /> : undefined}
                  sx={{ alignSelf: 'flex-start' }}
                >
                  {saving ? UI_TEXT.saving : UI_TEXT.save}
                </Button>
              </Stack>
            </Form>
          </Formik>
        )}
      </Stack>
    </Paper>
  );
}
