import dayjs, { type Dayjs } from 'dayjs';
import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import { API_DATE_FORMAT, PICKER_DATE_FORMAT } from '../format';
import { type BaseFieldProps, textFieldProps, useBoundField } from '../form/useBoundField';

/**
 * A date field (dd/mm/yyyy, Indonesian, no time) bound to a formik field holding the API's
 * `YYYY-MM-DD` text ('' when empty; an unfinished date stays '' until it is whole). Needs a
 * {@link DatePickerProvider} above it.
 */
export function DateInput(props: BaseFieldProps) {
  const { id, field, helpers, error } = useBoundField<string>(props.name);
  const value = field.value ? dayjs(field.value) : null;
  const { name, label, required, error: hasError, helperText } = textFieldProps(props, error);
  return (
    <DatePicker
      label={label}
      format={PICKER_DATE_FORMAT}
      value={value?.isValid() ? value : null}
      disabled={props.disabled}
      onChange={(date: Dayjs | null) =>
        void helpers.setValue(date?.isValid() ? date.format(API_DATE_FORMAT) : '')
      }
      slotProps={{
        textField: {
          id,
          name,
          required,
          fullWidth: true,
          error: hasError,
          helperText,
          onBlur: () => void helpers.setTouched(true),
        },
      }}
    />
  );
}
