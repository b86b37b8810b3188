import { Form, Formik, useFormikContext } from 'formik';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import type { Dayjs } from 'dayjs';
import {
  CHART_GRANULARITIES,
  CHART_GRANULARITY_LABELS,
  CHART_PRESET_LABELS,
  CHART_PRESETS,
  CHART_STATUS_LABELS,
  CHART_STATUS_OPTIONS,
} from '@sertifikasi/shared-contracts';
import {
  MultiSelectInput,
  PICKER_DATE_FORMAT,
  SelectInput,
  UI_TEXT,
  useBoundField,
} from '@sertifikasi/shared-ui';
import { DatePickerProvider } from '@sertifikasi/shared-ui/date';
import { t } from '../../i18n/id';
import { chartSettingsSchema, type ChartKind, type ChartSettings } from './chartSettings';

const STATUS_OPTIONS = CHART_STATUS_OPTIONS.map((value) => ({ value, label: CHART_STATUS_LABELS[value] }));
const PRESET_OPTIONS = CHART_PRESETS.map((value) => ({ value, label: CHART_PRESET_LABELS[value] }));

/** A date of the custom range, bound to the formik field `name`. */
function DateField({ name, label }: { name: 'start' | 'end'; label: string }) {
  const { id, field, helpers, error } = useBoundField<Dayjs | null>(name);
  return (
    <DatePicker
      label={label}
      format={PICKER_DATE_FORMAT}
      value={field.value ?? null}
      onChange={(date) => void helpers.setValue(date)}
      slotProps={{
        textField: {
          id,
          name,
          fullWidth: true,
          required: true,
          error: error !== undefined,
          helperText: error,
          onBlur: () => void helpers.setTouched(true),
        },
      }}
    />
  );
}

/** Harian / Bulanan / Tahunan as radio buttons; the too-many-points message shows under them. */
function GranularityField() {
  const { id, field, error } = useBoundField<string>('chart');
  return (
    <FormControl error={error !== undefined}>
      <FormLabel id={`${id}-label`}>{t.dashboard.granularity}</FormLabel>
      <RadioGroup
        row
        aria-labelledby={`${id}-label`}
        name="chart"
        value={field.value}
        onChange={field.onChange}
      >
        {CHART_GRANULARITIES.map((value) => (
          <FormControlLabel
            key={value}
            value={value}
            control={<Radio />}
            label={CHART_GRANULARITY_LABELS[value]}
          />
        ))}
      </RadioGroup>
      {error !== undefined && <FormHelperText>{error}</FormHelperText>}
    </FormControl>
  );
}

function Fields({ kind }: { kind: ChartKind }) {
  const { values } = useFormikContext<ChartSettings>();
  return (
    <Stack spacing={2.5} sx={{ pt: 1 }}>
      {kind === 'company' && (
        <MultiSelectInput name="status" label={t.dashboard.status} options={STATUS_OPTIONS} />
      )}
      <SelectInput name="date_type" label={t.dashboard.period} options={PRESET_OPTIONS} placeholder={false} />
      {values.date_type === 'custom' && (
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <DateField name="start" label={t.dashboard.startDate} />
          <DateField name="end" label={t.dashboard.endDate} />
        </Stack>
      )}
      <GranularityField />
    </Stack>
  );
}

export interface ChartSettingsDialogProps {
  open: boolean;
  kind: ChartKind;
  /** The chart's title: the dialog reads 'Pengaturan <title>'. */
  title: string;
  settings: ChartSettings;
  onClose: () => void;
  /** 'Terapkan': the new settings (the chart reloads and the dialog closes). */
  onApply: (settings: ChartSettings) => void;
}

/**
 * A chart's settings (docs/rules.md#screens and #status): the statuses (company chart only), the period
 * (presets, or 'Pilih Tanggal' revealing the start and end dates) and the granularity.
 */
export function ChartSettingsDialog({
  open,
  kind,
  title,
  settings,
  onClose,
  onApply,
}: ChartSettingsDialogProps) {
  const theme = useTheme();
  // Like the portal's form modals: the whole screen below 600 px.
  const fullScreen = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
  const titleId = `chart-settings-${kind}`;
  return (
    <Dialog
      open={open}
      onClose={onClose}
      fullScreen={fullScreen}
      aria-labelledby={titleId}
      slotProps={{ paper: { sx: fullScreen ? {} : { width: 520, maxWidth: 'calc(100% - 32px)' } } }}
    >
      <DialogTitle id={titleId}>{t.dashboard.settingsTitle(title)}</DialogTitle>
      <Formik<ChartSettings>
        initialValues={settings}
        validationSchema={chartSettingsSchema(kind)}
        onSubmit={(values) => onApply(values)}
      >
        <Form noValidate style={{ display: 'contents' }}>
          <DialogContent dividers>
            <DatePickerProvider>
              <Fields kind={kind} />
            </DatePickerProvider>
          </DialogContent>
          <DialogActions sx={{ px: 3, py: 2 }}>
            <Button onClick={onClose}>{UI_TEXT.cancel}</Button>
            <Button type="submit" variant="contained">
              {t.dashboard.apply}
            </Button>
          </DialogActions>
        </Form>
      </Formik>
    </Dialog>
  );
}
