import { useEffect, useMemo } from 'react';
import { useField } from 'formik';
import Autocomplete from '@mui/material/Autocomplete';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import { ALL, parseCompanyIds, serializeCompanyIds } from '@sertifikasi/shared-contracts';
import { refreshUserInfo, useAuth } from '@sertifikasi/shared-auth';
import { t } from '../i18n/id';

/**
 * `company_ids` as it travels (a string of JSON: "ALL" or a list of ids): a switch for every company,
 * or a searchable choice among the companies the signed-in user may give (their own scope; the API
 * refuses anything wider).
 */
export function CompanyAccessInput({ name = 'company_ids' }: { name?: string }) {
  const [field, meta, helpers] = useField<string>(name);
  const companies = useAuth((s) => s.companies);
  const scope = useAuth((s) => s.company_ids);
  // Companies added since sign-in (by someone else too) become choices as soon as the form opens.
  useEffect(() => refreshUserInfo(), []);
  const value = parseCompanyIds(field.value) ?? [];
  const all = value === ALL;
  const options = useMemo(() => companies.filter((c) => c.id !== ALL), [companies]);
  const chosen = all ? [] : options.filter((c) => value.includes(c.id));
  const error = meta.touched || meta.error ? meta.error : undefined;
  return (
    <Stack spacing={1}>
      <FormControlLabel
        label={t.users.allCompanies}
        control={
          <Switch
            checked={all}
            disabled={scope !== ALL}
            onChange={(e) => void helpers.setValue(serializeCompanyIds(e.target.checked ? ALL : []))}
          />
        }
      />
      {!all && (
        <Autocomplete
          multiple
          options={options}
          value={chosen}
          getOptionLabel={(o) => o.name}
          isOptionEqualToValue={(a, b) => a.id === b.id}
          onChange={(_e, list) => void helpers.setValue(serializeCompanyIds(list.map((c) => c.id)))}
          onBlur={() => void helpers.setTouched(true)}
          renderInput={(params) => (
            <TextField
              {...params}
              id={name}
              name={name}
              label={t.users.chooseCompanies}
              error={!!error}
              required
            />
          )}
        />
      )}
      {error && <FormHelperText error>{error}</FormHelperText>}
    </Stack>
  );
}
