import TextField from '@mui/material/TextField';
import { UI_TEXT } from '../i18n/id';
import type { SelectOption } from './options';
import { useTextField, type BaseFieldProps } from './useBoundField';

export interface SelectInputProps extends BaseFieldProps {
  options: readonly SelectOption[];
  /** The empty first choice ('- Pilih -' by default); `false` leaves it out. */
  placeholder?: string | false;
}

/**
 * A native select (short lists: statuses, roles, types) bound to the formik field `name`. For long
 * lists use AutocompleteInput, which can be searched.
 */
export function SelectInput({ options, placeholder, ...base }: SelectInputProps) {
  const inputProps = useTextField<string | null | undefined>(base);
  return (
    <TextField {...inputProps} select slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}>
      {placeholder !== false && <option value="">{placeholder ?? UI_TEXT.selectPlaceholder}</option>}
      {options.map((option) => (
        <option key={option.value} value={option.value}>
          {option.label}
        </option>
      ))}
    </TextField>
  );
}
