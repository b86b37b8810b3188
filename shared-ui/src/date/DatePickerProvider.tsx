import type { ReactNode } from 'react';
import 'dayjs/locale/id';
import { AdapterDayjs } from '@mui/x-date-pickers/AdapterDayjs';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import type { PickersLocaleText } from '@mui/x-date-pickers/locales';

/** The pickers' own texts in Indonesian (MUI X ships no Indonesian locale). */
export const PICKER_TEXT = {
  previousMonth: 'Bulan sebelumnya',
  nextMonth: 'Bulan berikutnya',
  openPreviousView: 'Tampilan sebelumnya',
  openNextView: 'Tampilan berikutnya',
  yearViewOpen: 'tampilan tahun terbuka, beralih ke kalender',
  calendarViewOpen: 'tampilan kalender terbuka, beralih ke tahun',
  cancel: 'Batal',
  clear: 'Kosongkan',
  ok: 'OK',
  today: 'Hari ini',
  toolbarTitle: 'Pilih tanggal',
  chooseDate: 'Pilih tanggal',
  chosenDate: (date: string) => `Pilih tanggal, tanggal terpilih ${date}`,
  dateTable: 'pilih tanggal',
  day: 'Hari',
  month: 'Bulan',
  year: 'Tahun',
  dayPlaceholder: 'HH',
  monthPlaceholder: 'BB',
  yearPlaceholder: 'TTTT',
  empty: 'Kosong',
} as const;

const p = PICKER_TEXT;

/** Navigation, buttons, the field's placeholders (HH/BB/TTTT) and the open-calendar button's name. */
export const indonesianPickerText: Partial<PickersLocaleText> = {
  previousMonth: p.previousMonth,
  nextMonth: p.nextMonth,
  openPreviousView: p.openPreviousView,
  openNextView: p.openNextView,
  calendarViewSwitchingButtonAriaLabel: (view) => (view === 'year' ? p.yearViewOpen : p.calendarViewOpen),
  cancelButtonLabel: p.cancel,
  clearButtonLabel: p.clear,
  okButtonLabel: p.ok,
  todayButtonLabel: p.today,
  datePickerToolbarTitle: p.toolbarTitle,
  openDatePickerDialogue: (formatted) => (formatted ? p.chosenDate(formatted) : p.chooseDate),
  fieldClearLabel: p.clear,
  dateTableLabel: p.dateTable,
  fieldDayPlaceholder: () => p.dayPlaceholder,
  fieldMonthPlaceholder: () => p.monthPlaceholder,
  fieldYearPlaceholder: (params) => p.yearPlaceholder.slice(0, params.digitAmount),
  day: p.day,
  month: p.month,
  year: p.year,
  empty: p.empty,
};

/** Date pickers in Indonesian: dayjs with the 'id' locale (month and day names), Indonesian texts. */
export function DatePickerProvider({ children }: { children: ReactNode }) {
  return (
    <LocalizationProvider dateAdapter={AdapterDayjs} adapterLocale="id" localeText={indonesianPickerText}>
      {children}
    </LocalizationProvider>
  );
}
