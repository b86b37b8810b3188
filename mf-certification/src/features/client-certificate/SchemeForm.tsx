import { createContext, useContext } from 'react';
import { useFormikContext } from 'formik';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import {
  addValidity,
  type Flag,
  IAF_SECTORS,
  isCalendarDate,
  SCHEME_STATUS_LABELS,
  SCHEME_STATUSES,
  schemeInputSchema,
  type Scheme,
  type SchemeStatus,
  VALID_FOR_TYPE_LABELS,
  VALID_FOR_TYPES,
  type ValidForType,
} from '@sertifikasi/shared-contracts';
import {
  formatDate,
  type FormMode,
  MultiSelectInput,
  type ResourceFormConfig,
  SelectInput,
  type SelectOption,
  TextInput,
} from '@sertifikasi/shared-ui';
import { t } from '../../i18n/id';
import { useCertificationLookups } from '../lookups';
import { type SchemeSiteValue, SchemeSitesInput } from './SchemeSitesInput';

/** The client a scheme form belongs to. */
export interface SchemeParent {
  /** The client's id (`certificate_id`). */
  id: string;
  company_id: string;
  /** The company's `simple_dates`: the form asks no surveillance date. */
  simpleDates: boolean;
}

export interface SchemeFormValues {
  certificate_id: string;
  company_id: string;
  certification_id: string;
  cert_number: string;
  status: SchemeStatus | '';
  issue_date: string;
  original_issue_date: string;
  issue_date2: string;
  valid_for: number | '';
  valid_for_type: ValidForType;
  valid_date: string;
  surveillance_date: string;
  decision_date: string;
  is_accredited: Flag;
  accredited_id: string;
  desc: string;
  scope: string;
  /** The chosen IAF sector codes, as the multi-select holds them (text). */
  sector_codes: string[];
  sites: SchemeSiteValue[];
}

/** A new scheme starts ACTIVE, valid for 3 years (the usual ISO certificate), not accredited. */
export function schemeFormValues(parent: SchemeParent, s: Scheme | null): SchemeFormValues {
  return {
    certificate_id: parent.id,
    company_id: parent.company_id,
    certification_id: s?.certification_id ?? '',
    cert_number: s?.cert_number ?? '',
    status: s?.status ?? 'ACTIVE',
    issue_date: s?.issue_date ?? '',
    original_issue_date: s?.original_issue_date ?? '',
    issue_date2: s?.issue_date2 ?? '',
    valid_for: s?.valid_for ?? 3,
    valid_for_type: s?.valid_for_type ?? 'YEAR',
    valid_date: s?.valid_date ?? '',
    surveillance_date: s?.surveillance_date ?? '',
    decision_date: s?.decision_date ?? '',
    is_accredited: s?.is_accredited ?? 'false',
    accredited_id: s?.accredited_id ?? '',
    desc: s?.desc ?? '',
    scope: s?.scope ?? '',
    sector_codes: (s?.sector_codes ?? []).map(String),
    sites: (s?.sites ?? []).map((site) => ({ site_id: site.site_id, scope: site.scope ?? '' })),
  };
}

const blankToNull = (value: string) => (value.trim() === '' ? null : value);

/** The JSON body: empty optional fields as null, no accreditation body unless accredited. */
export function schemeBody(v: SchemeFormValues): Record<string, unknown> {
  return {
    ...v,
    original_issue_date: blankToNull(v.original_issue_date),
    issue_date2: blankToNull(v.issue_date2),
    valid_date: blankToNull(v.valid_date),
    surveillance_date: blankToNull(v.surveillance_date),
    decision_date: blankToNull(v.decision_date),
    accredited_id: v.is_accredited === 'true' ? blankToNull(v.accredited_id) : null,
    desc: blankToNull(v.desc),
    scope: blankToNull(v.scope),
    sector_codes: v.sector_codes.map(Number),
    sites: v.sites.map((site) => ({ site_id: site.site_id, scope: blankToNull(site.scope) })),
  };
}

const SchemeParentContext = createContext<SchemeParent | null>(null);
export const SchemeParentProvider = SchemeParentContext.Provider;

const statusOptions: SelectOption[] = SCHEME_STATUSES.map((s) => ({
  value: s,
  label: SCHEME_STATUS_LABELS[s],
}));
const validForOptions: SelectOption[] = VALID_FOR_TYPES.map((v) => ({
  value: v,
  label: VALID_FOR_TYPE_LABELS[v],
}));
/** 'Kode Sektor IAF': each code with its Indonesian name. */
const sectorOptions: SelectOption[] = IAF_SECTORS.map((s) => ({
  value: String(s.code),
  label: `${s.code} - ${s.id}`,
}));
const flagOptions: SelectOption[] = [
  { value: 'true', label: t.common.yes },
  { value: 'false', label: t.common.no },
];

const grid = { display: 'grid', gap: 2.5, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } } as const;
const wide = { gridColumn: '1 / -1' } as const;

/** The expiry the API will compute (docs/rules.md#records), shown under the validity. */
function ExpiryPreview() {
  const { values } = useFormikContext<SchemeFormValues>();
  const n = Number(values.valid_for);
  if (!isCalendarDate(values.issue_date) || !Number.isInteger(n) || n < 1 || n > 1000) return null;
  const expiry = addValidity(values.issue_date, n, values.valid_for_type);
  return (
    <Typography variant="body2" color="text.secondary" sx={wide} role="status">
      {t.scheme.expiredPreview(formatDate(expiry))}
    </Typography>
  );
}

/**
 * The scheme form (docs/rules.md#validation and #records): certification type, the scheme's own
 * certificate number, status, issue date, validity (number and TAHUN/BULAN/HARI), accredited YA/TIDAK
 * revealing the accreditation body, optional dates and description. The surveillance date is not
 * asked for a company with `simple_dates`.
 */
export function SchemeFields() {
  const parent = useContext(SchemeParentContext);
  const { values } = useFormikContext<SchemeFormValues>();
  const lookups = useCertificationLookups(parent?.company_id);
  return (
    <Box sx={grid}>
      <Box sx={wide}>
        <SelectInput
          name="certification_id"
          label={t.scheme.certification}
          options={lookups.certification}
          required
        />
      </Box>
      <TextInput name="cert_number" label={t.scheme.certNumber} required />
      <SelectInput name="status" label={t.scheme.status} options={statusOptions} required />
      <TextInput name="issue_date" label={t.scheme.issueDate} type="date" required />
      <TextInput name="issue_date2" label={t.scheme.issueDate2} type="date" />
      <TextInput name="original_issue_date" label={t.scheme.originalIssueDate} type="date" />
      <TextInput name="valid_for" label={t.scheme.validFor} type="number" required />
      <SelectInput
        name="valid_for_type"
        label={t.scheme.validForType}
        options={validForOptions}
        placeholder={false}
        required
      />
      <ExpiryPreview />
      <TextInput name="valid_date" label={t.scheme.validDate} type="date" />
      <TextInput name="decision_date" label={t.scheme.decisionDate} type="date" />
      {!parent?.simpleDates && (
        <TextInput name="surveillance_date" label={t.scheme.surveillanceDate} type="date" />
      )}
      <SelectInput
        name="is_accredited"
        label={t.scheme.isAccredited}
        options={flagOptions}
        placeholder={false}
        required
      />
      {values.is_accredited === 'true' && (
        <SelectInput name="accredited_id" label={t.scheme.accredited} options={lookups.accredited} required />
      )}
      <Box sx={wide}>
        <TextInput name="scope" label={t.scheme.scope} multiline rows={2} helperText={t.scheme.scopeHint} />
      </Box>
      <Box sx={wide}>
        <MultiSelectInput name="sector_codes" label={t.scheme.sectorCodes} options={sectorOptions} />
      </Box>
      <Box sx={wide}>
        <SchemeSitesInput clientId={parent?.id} />
      </Box>
      <Box sx={wide}>
        <TextInput name="desc" label={t.scheme.desc} multiline rows={3} />
      </Box>
    </Box>
  );
}

/** The scheme form of a client, for the detail page's 'Skema Sertifikasi' section. */
export function schemeForm(parent: SchemeParent): ResourceFormConfig<Scheme, SchemeFormValues> {
  return {
    initialValues: (s) => schemeFormValues(parent, s),
    schema: (_mode: FormMode) => schemeInputSchema,
    Fields: SchemeFields,
    toBody: (v) => schemeBody(v),
    width: 720,
  };
}
