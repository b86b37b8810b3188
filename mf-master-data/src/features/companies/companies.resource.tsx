import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import { type Company, companyInputSchema } from '@sertifikasi/shared-contracts';
import { refreshUserInfo } from '@sertifikasi/shared-auth';
import {
  ImageInput,
  NameWithImage,
  orDash,
  type ResourceConfig,
  SwitchInput,
  TextInput,
} from '@sertifikasi/shared-ui';
import { t } from '../../i18n/id';

export interface CompanyFormValues {
  name: string;
  email: string;
  phone: string;
  address: string;
  website: string;
  logo: string;
  logo_cert: string;
  ttd_cert: string;
  simple_dates: 'true' | 'false';
  public_certificate_download: 'true' | 'false';
}

function CompanyFields() {
  return (
    <Stack spacing={2} sx={{ pt: 1 }}>
      <TextInput name="name" label={t.companies.name} required />
      <TextInput name="website" label={t.companies.website} type="url" required placeholder="https://" />
      <TextInput name="email" label={t.companies.email} type="email" />
      <TextInput name="phone" label={t.companies.phone} type="tel" />
      <TextInput name="address" label={t.companies.address} multiline rows={3} />
      {/* As many images side by side as fit (one on a phone), none squeezed. */}
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: 'repeat(auto-fill, minmax(250px, 1fr))' }}>
        <ImageInput name="logo" label={t.companies.logo} />
        <ImageInput name="logo_cert" label={t.companies.logoCert} />
        <ImageInput name="ttd_cert" label={t.companies.ttdCert} />
      </Box>
      <SwitchInput
        name="simple_dates"
        label={t.companies.simpleDates}
        helperText={t.companies.simpleDatesHint}
      />
      <SwitchInput
        name="public_certificate_download"
        label={t.companies.publicDownload}
        helperText={t.companies.publicDownloadHint}
      />
    </Stack>
  );
}

/** Companies: name with logo, phone, email, website; three images and the two display settings. */
export const companyResource: ResourceConfig<Company, CompanyFormValues> = {
  title: t.companies.title,
  entityLabel: t.companies.entity,
  endpoint: 'company',
  module: 'company',
  searchPlaceholder: t.companies.search,
  columns: [
    { header: t.companies.name, render: (c) => <NameWithImage name={c.name} image={c.logo} /> },
    { header: t.companies.phone, render: (c) => orDash(c.phone) },
    { header: t.companies.email, render: (c) => orDash(c.email) },
    { header: t.companies.website, render: (c) => orDash(c.website) },
  ],
  form: {
    initialValues: (c) => ({
      name: c?.name ?? '',
      email: c?.email ?? '',
      phone: c?.phone ?? '',
      address: c?.address ?? '',
      website: c?.website ?? '',
      logo: c?.logo ?? '',
      logo_cert: c?.logo_cert ?? '',
      ttd_cert: c?.ttd_cert ?? '',
      simple_dates: c?.simple_dates ?? 'false',
      public_certificate_download: c?.public_certificate_download ?? 'false',
    }),
    schema: () => companyInputSchema,
    Fields: CompanyFields,
    multipart: true,
    width: 720,
  },
  // The header's company selector lists the caller's companies from user-info.
  afterChange: refreshUserInfo,
};
