import { useMemo } from 'react';
import Autocomplete from '@mui/material/Autocomplete';
import { choiceProps, type SelectOption } from './options';
import { useBoundField, type BaseFieldProps } from './useBoundField';

export interface AutocompleteInputProps extends BaseFieldProps {
  options: readonly SelectOption[];
  placeholder?: string;
}

/**
 * A single choice from a long list, searchable by typing (MUI Autocomplete); the formik value is the
 * chosen option's `value`, or '' when none.
 */
export function AutocompleteInput({ options, placeholder, ...base }: AutocompleteInputProps) {
  const { id, field, helpers, error } = useBoundField<string | null | undefined>(base.name);
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
      {...choiceProps(base, error, placeholder)}
    />
  );
}
