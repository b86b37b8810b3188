import type { Dayjs } from 'dayjs';
import {
  dateRangeParam,
  EFFECTIVE_STATUS_LABELS,
  REPORT_STATUS_OPTIONS,
  type LookupOption,
  type ReportLookups,
} from '@sertifikasi/shared-contracts';
import { MultiSelectInput, TextInput } from '@sertifikasi/shared-ui';
import type { DateRangeValue } from '../../components/DateRangeInput';
import { t } from '../../i18n/id';

/** The free-text filter ('Cari Data'). */
export function SearchFilter({ label }: { label: string }) {
  return <TextInput name="search" label={label} placeholder={t.report.searchPlaceholder} />;
}

/** A choice of the report look-up: its name, and with ALL the company it belongs to. */
function option(entry: LookupOption, all: boolean) {
  return { value: entry.id, label: all ? `${entry.name} (${entry.company.name})` : entry.name };
}

/** A multi-select of one of the report look-ups (certification types, accreditation bodies, clients). */
export function LookupFilter({
  name,
  label,
  source,
  lookups,
  all,
}: {
  name: string;
  label: string;
  source: keyof ReportLookups;
  lookups: ReportLookups | null;
  all: boolean;
}) {
  const options = (lookups?.[source] ?? []).map((entry) => option(entry, all));
  return <MultiSelectInput name={name} label={label} options={options} />;
}

const STATUS_OPTIONS = REPORT_STATUS_OPTIONS.map((value) => ({
  value,
  label: EFFECTIVE_STATUS_LABELS[value],
}));

/** The scheme report's statuses, KADALUARSA (EXPIRED) its own choice. */
export function StatusFilter({ label }: { label: string }) {
  return <MultiSelectInput name="status" label={label} options={STATUS_OPTIONS} />;
}

/** The calendar date's local midnight: the API reads it as that date (docs/rules.md#wire-formats). */
const midnight = (d: Dayjs | null) => (d?.isValid() ? d.startOf('day').toDate() : null);

/** A range as it travels: two ISO timestamps joined by a comma (either may be empty), or '' for none. */
export const rangeParam = (range: DateRangeValue): string =>
  dateRangeParam(midnight(range.from), midnight(range.to));
