import { useState } from 'react';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';
import { UI_TEXT } from '../i18n/id';
import { useTextField, type BaseFieldProps } from './useBoundField';

export interface PasswordInputProps extends BaseFieldProps {
  /** 'new-password' (default) in forms that set a password, 'current-password' on the login page. */
  autoComplete?: 'new-password' | 'current-password';
  autoFocus?: boolean;
}

/** A password input with a show/hide button, bound to the formik field `name`. */
export function PasswordInput({ autoComplete = 'new-password', autoFocus, ...base }: PasswordInputProps) {
  const inputProps = useTextField<string | null | undefined>(base);
  const [visible, setVisible] = useState(false);
  const toggleLabel = visible ? UI_TEXT.hidePassword : UI_TEXT.showPassword;
  return (
    <TextField
      {...inputProps}
      type={visible ? 'text' : 'password'}
      autoComplete={autoComplete}
      autoFocus={autoFocus}
      slotProps={{
        input: {
          endAdornment: (
            <InputAdornment position="end">
              <IconButton
                aria-label={toggleLabel}
                title={toggleLabel}
                onClick={() => setVisible((v) => !v)}
                edge="end"
                disabled={base.disabled}
              >
                {visible ? <VisibilityOff /> : <Visibility />}
              </IconButton>
            </InputAdornment>
          ),
        },
      }}
    />
  );
}
