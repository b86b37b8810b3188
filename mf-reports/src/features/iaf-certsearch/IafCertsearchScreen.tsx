import { useEffect, useState } from 'react';
import { Formik, useFormikContext } from 'formik';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { ALL } from '@sertifikasi/shared-contracts';
import { useAuth } from '@sertifikasi/shared-auth';
import { CompanyInput } from '@sertifikasi/shared-ui';
import { t } from '../../i18n/id';
import { ReadinessCard } from './ReadinessCard';
import { SettingsCard } from './SettingsCard';
import { UploadCard } from './UploadCard';
import { UploadHistory } from './UploadHistory';
import { useIafCompany } from './useIafCompany';

/** Tells the screen which company the shared company field holds. */
function ChosenCompany({ onChange }: { onChange: (companyId: string) => void }) {
  const { values } = useFormikContext<{ company_id: string }>();
  useEffect(() => onChange(values.company_id), [values.company_id, onChange]);
  return <CompanyInput required={false} />;
}

const twoColumns = {
  display: 'grid',
  gap: 2,
  gridTemplateColumns: { xs: 'minmax(0, 1fr)', lg: 'repeat(2, minmax(0, 1fr))' },
  alignItems: 'start',
} as const;

/** Everything the screen shows of one company. */
function IafBody({ companyId }: { companyId: string }) {
  const iaf = useIafCompany(companyId);
  return (
    <>
      <ReadinessCard companyId={companyId} readiness={iaf.readiness} />
      <Box sx={twoColumns}>
        <SettingsCard companyId={companyId} settings={iaf.settings} />
        <UploadCard
          companyId={companyId}
          settings={iaf.settings.data}
          running={iaf.running}
          onQueued={iaf.uploads.reload}
        />
      </Box>
      <UploadHistory uploads={iaf.uploads} />
    </>
  );
}

/**
 * `/iaf-certsearch` (docs/rules.md#iaf-certsearch): for the header's company (with every company in
 * the header, the company chosen here with the shared company field): its readiness with the
 * incomplete schemes and where to fix them, 'Unduh Excel', the account's settings, 'Unggah Sekarang'
 * and 'Unggah Semua', and 'Riwayat Unggah', followed while an upload runs.
 */
export function IafCertsearchScreen() {
  const header = useAuth((s) => s.company_id);
  const [chosen, setChosen] = useState('');
  const all = header === ALL;
  const companyId = all ? chosen || null : header;
  return (
    <Stack spacing={2}>
      <Paper component="section" variant="outlined" aria-labelledby="iaf-title" sx={{ p: 2 }}>
        <Stack spacing={2}>
          <Typography id="iaf-title" variant="h6" component="h2">
            {t.iaf.title}
          </Typography>
          {all && (
            <Box sx={{ maxWidth: 480 }}>
              <Formik initialValues={{ company_id: chosen }} onSubmit={() => undefined}>
                <ChosenCompany onChange={setChosen} />
              </Formik>
            </Box>
          )}
          {!companyId && <Alert severity="info">{all ? t.iaf.chooseCompany : t.report.noCompany}</Alert>}
        </Stack>
      </Paper>
      {companyId && <IafBody key={companyId} companyId={companyId} />}
    </Stack>
  );
}

export default IafCertsearchScreen;
