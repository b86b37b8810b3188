import type { Dayjs } from 'dayjs';
import Box from '@mui/material/Box';
import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import { PICKER_DATE_FORMAT, useBoundField } from '@sertifikasi/shared-ui';
import { t } from '../i18n/id';

/** A date range as the filter form holds it: either end may be empty. */
export interface DateRangeValue {
  from: Dayjs | null;
  to: Dayjs | null;
}

export const emptyRange = (): DateRangeValue => ({ from: null, to: null });

/** True when both ends are set and the end lies before the start. */
export const rangeReversed = (range: DateRangeValue): boolean =>
  Boolean(range.from?.isValid() && range.to?.isValid() && range.to.isBefore(range.from, 'day'));

export interface DateRangeInputProps {
  /** The formik field holding a {@link DateRangeValue}. */
  name: string;
  /** The range's label: the pickers read '<label> dari' and '<label> sampai'. */
  label: string;
  disabled?: boolean;
}

/**
 * Two date pickers (dd/MM/yyyy, Indonesian, no time) for an inclusive range, bound to one formik
 * field. Needs a {@link DatePickerProvider} above it.
 */
export function DateRangeInput({ name, label, disabled }: DateRangeInputProps) {
  const { id, field, helpers, error } = useBoundField<DateRangeValue>(name);
  const value = field.value ?? emptyRange();
  const set = (end: keyof DateRangeValue) => (date: Dayjs | null) =>
    void helpers.setValue({ ...value, [end]: date });
  const slotProps = (end: keyof DateRangeValue) => ({
    textField: {
      id: `${id}-${end}`,
      name: `${name}.${end}`,
      fullWidth: true,
      error: end === 'to' && error !== undefined,
      helperText: end === 'to' ? error : undefined,
      onBlur: () => void helpers.setTouched(true),
    },
    field: { clearable: true },
  });
  return (
    // In a filter grid (columns of at least 240 px) a range takes two columns from 600 px up, one
    // date beside the other; on a phone the two dates stack.
    <Box
      sx={{
        display: 'grid',
        gap: 2,
        gridColumn: { sm: 'span 2' },
        gridTemplateColumns: { xs: 'minmax(0, 1fr)', sm: 'repeat(2, minmax(0, 1fr))' },
      }}
    >
      <DatePicker
        label={t.report.rangeFrom(label)}
        format={PICKER_DATE_FORMAT}
        value={value.from}
        onChange={set('from')}
        disabled={disabled}
        slotProps={slotProps('from')}
      />
      <DatePicker
        label={t.report.rangeTo(label)}
        format={PICKER_DATE_FORMAT}
        value={value.to}
        onChange={set('to')}
        disabled={disabled}
        slotProps={slotProps('to')}
      />
    </Box>
  );
}
