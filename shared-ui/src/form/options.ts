import { createFilterOptions } from '@mui/material/Autocomplete';

/** A choice of a select: `value` is what the API gets, `label` what the user reads. */
export interface SelectOption {
  value: string;
  label: string;
}

/** How many matches a searchable list shows at once: typing narrows thousands of choices quickly. */
export const OPTION_LIMIT = 100;

export const filterOptions = createFilterOptions<SelectOption>({ limit: OPTION_LIMIT, trim: true });
