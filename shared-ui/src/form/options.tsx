import type { AutocompleteRenderInputParams } from '@mui/material/Autocomplete';
import { createFilterOptions } from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import { UI_TEXT } from '../i18n/id';
import { textFieldProps, type BaseFieldProps } from './useBoundField';

/** A choice of a select: `value` is what the API gets, `label` what the user reads. */
export interface SelectOption {
  value: string;
  label: string;
}

/** How many matches a searchable list shows at once: typing narrows thousands of choices quickly. */
export const OPTION_LIMIT = 100;

export const filterOptions = createFilterOptions<SelectOption>({ limit: OPTION_LIMIT, trim: true });

/**
 * The Autocomplete props AutocompleteInput and MultiSelectInput share: options shown by label and
 * matched by value, searched by typing (100 matches at most), 'Tidak ada pilihan', and the TextField
 * with the field's label and error.
 */
export function choiceProps(base: BaseFieldProps, error: string | undefined, placeholder?: string) {
  return {
    getOptionLabel: (option: SelectOption) => option.label,
    getOptionKey: (option: SelectOption) => option.value,
    isOptionEqualToValue: (option: SelectOption, value: SelectOption) => option.value === value.value,
    filterOptions,
    noOptionsText: UI_TEXT.noOptions,
    disabled: base.disabled,
    fullWidth: true,
    renderInput: (params: AutocompleteRenderInputParams) => (
      <TextField {...params} {...textFieldProps(base, error)} placeholder={placeholder} />
    ),
  };
}
