import TextField from '@mui/material/TextField';
import { useBoundField, type BaseFieldProps } from './useBoundField';

export interface TextInputProps extends BaseFieldProps {
  type?: 'text' | 'email' | 'url' | 'tel' | 'number' | 'date';
  multiline?: boolean;
  rows?: number;
  placeholder?: string;
  autoFocus?: boolean;
  autoComplete?: string;
}

/** A text input bound to the formik field `name`. */
export function TextInput({
  name,
  label,
  required,
  disabled,
  helperText,
  type = 'text',
  multiline,
  rows,
  placeholder,
  autoFocus,
  autoComplete,
}: TextInputProps) {
  const { id, field, error } = useBoundField<string | number | null | undefined>(name);
  return (
    <TextField
      id={id}
      name={name}
      label={label}
      type={type}
      value={field.value ?? ''}
      onChange={field.onChange}
      onBlur={field.onBlur}
      required={required}
      disabled={disabled}
      error={error !== undefined}
      helperText={error ?? helperText}
      multiline={multiline}
      minRows={multiline ? (rows ?? 3) : undefined}
      placeholder={placeholder}
      autoFocus={autoFocus}
      autoComplete={autoComplete}
      fullWidth
      slotProps={type === 'date' ? { inputLabel: { shrink: true } } : undefined}
    />
  );
}
