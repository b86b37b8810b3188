import { useMemo } from 'react';
import Box from '@mui/material/Box';
import {
  type ClientCertificateDetail,
  type ClientSite,
  clientSiteInputSchema,
  countryName,
  DEFAULT_COUNTRY,
} from '@sertifikasi/shared-contracts';
import {
  ChildSection,
  DetailField,
  DetailGrid,
  type ResourceFormConfig,
  TextInput,
  useFetch,
} from '@sertifikasi/shared-ui';
import { t } from '../../i18n/id';
import { CountryInput } from './ClientFields';

export interface SiteFormValues {
  client_id: string;
  name: string;
  address: string;
  city: string;
  province: string;
  postcode: string;
  country: string;
}

const grid = { display: 'grid', gap: 2.5, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } } as const;
const wide = { gridColumn: '1 / -1' } as const;

function SiteFields() {
  return (
    <Box sx={grid}>
      <Box sx={wide}>
        <TextInput name="name" label={t.site.name} required />
      </Box>
      <Box sx={wide}>
        <TextInput name="address" label={t.client.address} multiline rows={2} />
      </Box>
      <TextInput name="city" label={t.client.city} />
      <TextInput name="province" label={t.client.province} />
      <TextInput name="postcode" label={t.client.postcode} />
      <CountryInput label={t.client.country} />
    </Box>
  );
}

/** The site form of a client (docs/rules.md#register-data): its name and address. */
function siteForm(clientId: string): ResourceFormConfig<ClientSite, SiteFormValues> {
  return {
    initialValues: (s) => ({
      client_id: clientId,
      name: s?.name ?? '',
      address: s?.address ?? '',
      city: s?.city ?? '',
      province: s?.province ?? '',
      postcode: s?.postcode ?? '',
      country: s?.country ?? DEFAULT_COUNTRY,
    }),
    schema: () => clientSiteInputSchema,
    Fields: SiteFields,
  };
}

/** The sites of a client in scope (`GET client-site?client_id=`); null until they are read. */
export function useClientSites(clientId: string | null | undefined) {
  return useFetch<ClientSite[]>(clientId ? 'client-site' : null, {
    ...(clientId ? { searchParams: { client_id: clientId } } : {}),
  });
}

/**
 * 'Lokasi' of a client's page: one card per site with its address, 'Tambah Lokasi', and Ubah/Hapus
 * under the client certificate's permissions (a site a certificate covers is not deleted: the API's
 * refusal is shown).
 */
export function ClientSites({ client }: { client: ClientCertificateDetail }) {
  const sites = useClientSites(client.id);
  const form = useMemo(() => siteForm(client.id), [client.id]);
  return (
    <ChildSection<ClientSite, SiteFormValues>
      title={t.clientDetail.sites}
      items={sites.data ?? []}
      itemTitle={(s) => s.name}
      renderItem={(s) => (
        <DetailGrid columns={3}>
          <DetailField label={t.client.address} value={s.address} wide />
          <DetailField label={t.client.city} value={s.city} />
          <DetailField label={t.client.province} value={s.province} />
          <DetailField label={t.client.postcode} value={s.postcode} />
          <DetailField label={t.client.country} value={countryName(s.country)} />
        </DetailGrid>
      )}
      entityLabel={t.site.entity}
      endpoint="client-site"
      form={form}
      module="company-certificate"
      onChange={sites.reload}
      emptyText={t.clientDetail.noSites}
    />
  );
}
