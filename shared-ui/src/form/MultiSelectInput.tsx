import { useMemo } from 'react';
import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import { UI_TEXT } from '../i18n/id';
import { filterOptions, type SelectOption } from './options';
import { useBoundField, type BaseFieldProps } from './useBoundField';

export interface MultiSelectInputProps extends BaseFieldProps {
  options: readonly SelectOption[];
  placeholder?: string;
}

/**
 * Several choices from a list, searchable by typing, shown as chips; the formik value is the array of
 * chosen `value`s.
 */
export function MultiSelectInput({
  name,
  label,
  required,
  disabled,
  helperText,
  options,
  placeholder,
}: MultiSelectInputProps) {
  const { id, field, helpers, error } = useBoundField<string[] | null | undefined>(name);
  const selected = useMemo(() => {
    const chosen = new Set(Array.isArray(field.value) ? field.value : []);
    return options.filter((option) => chosen.has(option.value));
  }, [options, field.value]);
  return (
    <Autocomplete
      multiple
      id={id}
      options={options}
      value={selected}
      onChange={(_event, chosen) => void helpers.setValue(chosen.map((option) => option.value))}
      onBlur={() => void helpers.setTouched(true)}
      getOptionLabel={(option) => option.label}
      getOptionKey={(option) => option.value}
      isOptionEqualToValue={(option, value) => option.value === value.value}
      filterOptions={filterOptions}
      filterSelectedOptions
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
