import TextField from '@mui/material/TextField';
import { useTextField, type BaseFieldProps } from './useBoundField';

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
  type = 'text',
  multiline,
  rows,
  placeholder,
  autoFocus,
  autoComplete,
  ...base
}: TextInputProps) {
  const inputProps = useTextField<string | number | null | undefined>(base);
  return (
    <TextField
      {...inputProps}
      type={type}
      multiline={multiline}
      minRows={multiline ? (rows ?? 3) : undefined}
      placeholder={placeholder}
      autoFocus={autoFocus}
      autoComplete={autoComplete}
      slotProps={type === 'date' ? { inputLabel: { shrink: true } } : undefined}
    />
  );
}
