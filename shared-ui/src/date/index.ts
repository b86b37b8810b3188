/**
 * The date pickers (MUI X on dayjs, dd/mm/yyyy, Indonesian): an entry of its own so that only the
 * modules with date fields load the picker library.
 */
export { DatePickerProvider, indonesianPickerText, PICKER_TEXT } from './DatePickerProvider';
export { DateInput } from './DateInput';
