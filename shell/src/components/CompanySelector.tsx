import { useMemo } from 'react';
import Autocomplete from '@mui/material/Autocomplete';
import { createFilterOptions } from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import { ALL } from '@sertifikasi/shared-contracts';
import { canSelectAll, useAuth } from '@sertifikasi/shared-auth';
import { OPTION_LIMIT } from '@sertifikasi/shared-ui';
import { t } from '../i18n/id';

interface Option {
  id: string;
  name: string;
}

/** Typing narrows thousands of companies; the list shows at most this many matches at once. */
const filterOptions = createFilterOptions<Option>({ limit: OPTION_LIMIT, trim: true });

/**
 * The header's company selector (required): ALL or one company of the caller's scope. Typing
 * searches, so it stays usable with thousands of companies.
 */
export function CompanySelector() {
  const companies = useAuth((s) => s.companies);
  const allowAll = useAuth(canSelectAll);
  const companyId = useAuth((s) => s.company_id);
  const setCompany = useAuth((s) => s.setCompany);
  const options = useMemo<Option[]>(
    () => [...(allowAll ? [{ id: ALL, name: t.header.allCompanies }] : []), ...companies],
    [allowAll, companies],
  );
  const value = options.find((o) => o.id === companyId) ?? null;
  return (
    <Autocomplete
      size="small"
      sx={{ flex: { xs: '1 1 180px', md: 'none' }, width: { md: 260 }, minWidth: 0 }}
      options={options}
      value={value}
      disableClearable={value !== null}
      filterOptions={filterOptions}
      getOptionLabel={(o) => o.name}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      onChange={(_e, option) => option && setCompany(option.id)}
      renderInput={(params) => <TextField {...params} label={t.header.company} required />}
    />
  );
}
