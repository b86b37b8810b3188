import { useFormikContext } from 'formik';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { t } from '../../i18n/id';
import { useClientSites } from './ClientSites';

/** A covered site as the form holds it: the scope '' when the scheme's stands. */
export interface SchemeSiteValue {
  site_id: string;
  scope: string;
}

/**
 * 'Lokasi' of the scheme form (docs/rules.md#register-data): a checkbox per site of the scheme's
 * client, and for each one ticked its own scope ('Lingkup <site>', empty: the scheme's).
 */
export function SchemeSitesInput({ clientId }: { clientId: string | undefined }) {
  const { values, setFieldValue, errors } = useFormikContext<{ sites: SchemeSiteValue[] }>();
  const sites = useClientSites(clientId);
  const chosen = new Map(values.sites.map((s) => [s.site_id, s]));
  const set = (next: SchemeSiteValue[]) => void setFieldValue('sites', next);
  const toggle = (siteId: string, on: boolean) =>
    set(
      on
        ? [...values.sites, { site_id: siteId, scope: '' }]
        : values.sites.filter((s) => s.site_id !== siteId),
    );
  const setScope = (siteId: string, scope: string) =>
    set(values.sites.map((s) => (s.site_id === siteId ? { ...s, scope } : s)));
  const error = typeof errors.sites === 'string' ? errors.sites : undefined;
  return (
    <Box component="fieldset" sx={{ border: 0, p: 0, m: 0 }}>
      <Typography component="legend" variant="subtitle2" sx={{ mb: 1 }}>
        {t.scheme.sites}
      </Typography>
      {sites.data && sites.data.length === 0 && (
        <Typography variant="body2" color="text.secondary">
          {t.scheme.noSites}
        </Typography>
      )}
      {(sites.data ?? []).map((site) => {
        const value = chosen.get(site.id);
        return (
          <Box key={site.id} sx={{ mb: 1 }}>
            <FormControlLabel
              control={<Checkbox checked={!!value} onChange={(e) => toggle(site.id, e.target.checked)} />}
              label={site.name}
            />
            {value && (
              <TextField
                fullWidth
                size="small"
                label={t.scheme.siteScope(site.name)}
                value={value.scope}
                onChange={(e) => setScope(site.id, e.target.value)}
                multiline
              />
            )}
          </Box>
        );
      })}
      {error && <FormHelperText error>{error}</FormHelperText>}
    </Box>
  );
}
