import { useMemo } from 'react';
import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import { UI_TEXT } from '../i18n/id';
import { filterOptions, type SelectOption } from './options';
import { useBoundField, type BaseFieldProps } from './useBoundField';

export interface AutocompleteInputProps extends BaseFieldProps {
  options: readonly SelectOption[];
  placeholder?: string;
}

/**
 * A single choice from a long list, searchable by typing (MUI Autocomplete); the formik value is the
 * chosen option's `value`, or '' when none.
 */
export function AutocompleteInput({
  name,
  label,
  required,
  disabled,
  helperText,
  options,
  placeholder,
}: AutocompleteInputProps) {
  const { id, field, helpers, error } = useBoundField<string | null | undefined>(name);
  const selected = useMemo(
    () => options.find((option) => option.value === field.value) ?? null,
    [options, field.value],
  );
  return (
    <Autocomplete
      id={id}
      options={options}
      value={selected}
      onChange={(_event, option) => void helpers.setValue(option?.value ?? '')}
      onBlur={() => void helpers.setTouched(true)}
      getOptionLabel={(option) => option.label}
      getOptionKey={(option) => option.value}
      isOptionEqualToValue={(option, value) => option.value === value.value}
      filterOptions={filterOptions}
      noOptionsText={UI_TEXT.noOptions}
      disabled={disabled}
      fullWidth
      renderInput={(params) => (
        <TextField
          {...params}
          name={name}
          label={label}
          placeholder={placeholder}
          required={required}
          error={error !== undefined}
          helperText={error ?? helperText}
        />
      )}
    />
  );
}
