import Box from '@mui/material/Box';
import {
  ALL,
  CLIENT_CERTIFICATE_IMAGE_LABELS,
  type ClientCertificate,
  COUNTRIES,
  countryName,
  DEFAULT_COUNTRY,
  SEND_REMINDERS_LABEL,
} from '@sertifikasi/shared-contracts';
import { useAuth } from '@sertifikasi/shared-auth';
import { useField } from 'formik';
import {
  CompanyInput,
  ImageInput,
  SelectInput,
  type SelectOption,
  SwitchInput,
  TextInput,
} from '@sertifikasi/shared-ui';
import { t } from '../../i18n/id';

/** The client form's values: every field of the client, '' for an empty one. */
export interface ClientFormValues {
  company_id: string;
  name: string;
  name_en: string;
  certificate_number: string;
  region: string;
  logo: string;
  logo_file: File | null;
  address: string;
  city: string;
  province: string;
  postcode: string;
  country: string;
  scope: string;
  ea_code: string;
  nace_code: string;
  president: string;
  management_representative: string;
  foundation_day: string;
  employees_number: number | '';
  employees_active: number | '';
  phone: string;
  handphone: string;
  fax: string;
  email: string;
  website: string;
  send_reminders: 'true' | 'false';
}

/** The form's values for a client (empty ones for a new client). */
export function clientFormValues(c: ClientCertificate | null): ClientFormValues {
  return {
    company_id: c?.company_id ?? '',
    name: c?.name ?? '',
    name_en: c?.name_en ?? '',
    certificate_number: c?.certificate_number ?? '',
    region: c?.region ?? '',
    logo: c?.logo ?? '',
    logo_file: null,
    address: c?.address ?? '',
    city: c?.city ?? '',
    province: c?.province ?? '',
    postcode: c?.postcode ?? '',
    country: c?.country ?? DEFAULT_COUNTRY,
    scope: c?.scope ?? '',
    ea_code: c?.ea_code ?? '',
    nace_code: c?.nace_code ?? '',
    president: c?.president ?? '',
    management_representative: c?.management_representative ?? '',
    foundation_day: c?.foundation_day ?? '',
    employees_number: c?.employees_number ?? '',
    employees_active: c?.employees_active ?? '',
    phone: c?.phone ?? '',
    handphone: c?.handphone ?? '',
    fax: c?.fax ?? '',
    email: c?.email ?? '',
    website: c?.website ?? '',
    send_reminders: c?.send_reminders ?? 'true',
  };
}

const LISTED_COUNTRIES: SelectOption[] = COUNTRIES.map((c) => ({ value: c.code, label: c.name }));

/** 'Negara' by name: the short list, plus the record's own country when it is not on it (an import's). */
export function CountryInput({ name = 'country', label }: { name?: string; label: string }) {
  const [field] = useField<string>(name);
  const current = field.value;
  const options =
    current && !LISTED_COUNTRIES.some((o) => o.value === current)
      ? [...LISTED_COUNTRIES, { value: current, label: countryName(current) }]
      : LISTED_COUNTRIES;
  return <SelectInput name={name} label={label} options={options} placeholder={false} />;
}

/** Two columns on a wide screen, one on a phone. */
const grid = {
  display: 'grid',
  gap: 2.5,
  gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' },
} as const;
const wide = { gridColumn: '1 / -1' } as const;

/**
 * Every field of a client (docs/rules.md#entities and #validation): name, number and region required; email as an
 * email, website as a URL, the foundation day as a date, employee counts as numbers; logo optional.
 * The company only when the header says ALL. Used by the list's modal and the detail page's
 * 'Ubah Profile Client'.
 */
export function ClientFields() {
  const companyId = useAuth((s) => s.company_id);
  return (
    <Box sx={grid}>
      {/* The company is chosen only when the header says ALL (an empty grid cell otherwise). */}
      {companyId === ALL && (
        <Box sx={wide}>
          <CompanyInput />
        </Box>
      )}
      <Box sx={wide}>
        <TextInput name="name" label={t.client.name} required />
      </Box>
      <Box sx={wide}>
        <TextInput name="name_en" label={t.client.nameEn} />
      </Box>
      <TextInput name="certificate_number" label={t.client.certificateNumber} required />
      <TextInput name="region" label={t.client.region} required />
      <Box sx={wide}>
        <ImageInput name="logo" label={CLIENT_CERTIFICATE_IMAGE_LABELS.logo} />
      </Box>
      <Box sx={wide}>
        <TextInput name="address" label={t.client.address} multiline rows={2} />
      </Box>
      <TextInput name="city" label={t.client.city} />
      <TextInput name="province" label={t.client.province} />
      <TextInput name="postcode" label={t.client.postcode} />
      <CountryInput label={t.client.country} />
      <Box sx={wide}>
        <TextInput name="scope" label={t.client.scope} multiline rows={3} />
      </Box>
      <TextInput name="ea_code" label={t.client.eaCode} />
      <TextInput name="nace_code" label={t.client.naceCode} />
      <TextInput name="president" label={t.client.president} />
      <TextInput name="management_representative" label={t.client.managementRepresentative} />
      <TextInput name="foundation_day" label={t.client.foundationDay} type="date" />
      <TextInput name="employees_number" label={t.client.employeesNumber} type="number" />
      <TextInput name="employees_active" label={t.client.employeesActive} type="number" />
      <TextInput name="phone" label={t.client.phone} type="tel" />
      <TextInput name="handphone" label={t.client.handphone} type="tel" />
      <TextInput name="fax" label={t.client.fax} type="tel" />
      <TextInput name="email" label={t.client.email} type="email" />
      <TextInput name="website" label={t.client.website} type="url" placeholder="https://" />
      <Box sx={wide}>
        <SwitchInput
          name="send_reminders"
          label={SEND_REMINDERS_LABEL}
          helperText={t.client.sendRemindersHint}
        />
      </Box>
    </Box>
  );
}
