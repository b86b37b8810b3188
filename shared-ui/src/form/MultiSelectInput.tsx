import { useMemo } from 'react';
import Autocomplete from '@mui/material/Autocomplete';
import { choiceProps, type SelectOption } from './options';
import { useBoundField, type BaseFieldProps } from './useBoundField';

export interface MultiSelectInputProps extends BaseFieldProps {
  options: readonly SelectOption[];
  placeholder?: string;
}

/**
 * Several choices from a list, searchable by typing, shown as chips; the formik value is the array of
 * chosen `value`s.
 */
export function MultiSelectInput({ options, placeholder, ...base }: MultiSelectInputProps) {
  const { id, field, helpers, error } = useBoundField<string[] | null | undefined>(base.name);
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
      {...choiceProps(base, error, placeholder)}
      filterSelectedOptions
    />
  );
}
