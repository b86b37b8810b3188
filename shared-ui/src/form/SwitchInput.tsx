import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import Switch from '@mui/material/Switch';
import { useBoundField, type BaseFieldProps } from './useBoundField';

export interface SwitchInputProps<On extends string | boolean = string | boolean> extends Omit<
  BaseFieldProps,
  'required'
> {
  /** The value when on; flags travel as the string 'true' (docs/rules.md#data), the default. */
  onValue?: On;
  /** The value when off; 'false' by default. */
  offValue?: On;
}

/** An on/off switch (role "switch") labelled `label`, bound to the formik field `name`. */
export function SwitchInput({
  name,
  label,
  disabled,
  helperText,
  onValue = 'true',
  offValue = 'false',
}: SwitchInputProps) {
  const { id, field, helpers, error } = useBoundField<string | boolean | null | undefined>(name);
  return (
    <FormControl error={error !== undefined} disabled={disabled}>
      <FormControlLabel
        label={label}
        control={
          <Switch
            id={id}
            name={name}
            checked={field.value === onValue}
            onChange={(event) => void helpers.setValue(event.target.checked ? onValue : offValue)}
            onBlur={field.onBlur}
          />
        }
      />
      {(error ?? helperText) && <FormHelperText>{error ?? helperText}</FormHelperText>}
    </FormControl>
  );
}
