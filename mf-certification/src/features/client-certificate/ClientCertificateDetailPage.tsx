import { useMemo } from 'react';
import Avatar from '@mui/material/Avatar';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import ImageIcon from '@mui/icons-material/ImageOutlined';
import {
  type ClientCertificateDetail,
  countryName,
  type Scheme,
  SEND_REMINDERS_LABEL,
} from '@sertifikasi/shared-contracts';
import {
  ChildSection,
  DetailField,
  DetailGrid,
  formatDate,
  formatNumber,
  imageUrl,
  RecordView,
  type ResourceFormConfig,
} from '@sertifikasi/shared-ui';
import { BackButton } from '../../components/BackButton';
import { EditableSection } from '../../components/EditableSection';
import { useCompanyRecord } from '../useCompanyRecord';
import { t } from '../../i18n/id';
import { clientFormSchema } from './client-certificate.resource';
import { ClientFields, clientFormValues, type ClientFormValues } from './ClientFields';
import { SchemeBadges, SchemeDetails } from './SchemeDetails';
import { schemeForm, SchemeParentProvider, type SchemeParent } from './SchemeForm';
import { ClientSites } from './ClientSites';

/** The client's profile form ('Ubah Profile Client'): the list's form, for the client on this page. */
const profileForm: ResourceFormConfig<ClientCertificateDetail, ClientFormValues> = {
  initialValues: clientFormValues,
  schema: clientFormSchema,
  Fields: ClientFields,
  multipart: true,
  width: 800,
};

function ClientHeader({ client }: { client: ClientCertificateDetail }) {
  const logo = imageUrl(client.logo);
  return (
    <Paper variant="outlined" sx={{ p: 2 }}>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', minWidth: 0 }}>
        <Avatar
          variant="rounded"
          src={logo ?? undefined}
          alt={logo ? `${t.client.logo} ${client.name}` : ''}
          sx={{
            width: 72,
            height: 72,
            bgcolor: 'grey.100',
            color: 'grey.500',
            '& img': { objectFit: 'contain' },
          }}
        >
          <ImageIcon />
        </Avatar>
        <Stack sx={{ minWidth: 0 }}>
          <Typography variant="h5" component="h2" sx={{ overflowWrap: 'anywhere' }}>
            {client.name}
          </Typography>
          <Typography color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
            {client.company.name}
          </Typography>
        </Stack>
      </Stack>
    </Paper>
  );
}

function ClientProfile({ client, onSaved }: { client: ClientCertificateDetail; onSaved: () => void }) {
  return (
    <EditableSection<ClientCertificateDetail, ClientFormValues>
      title={t.clientDetail.profile}
      record={client}
      permission="company-certificate:edit"
      editLabel={t.clientDetail.editProfile}
      editTitle={t.clientDetail.editProfileTitle}
      form={profileForm}
      endpoint="company-certificate"
      entityLabel={t.client.entity}
      onSaved={onSaved}
    >
      <DetailGrid columns={3}>
        <DetailField label={t.client.name} value={client.name} />
        <DetailField label={t.client.nameEn} value={client.name_en} />
        <DetailField label={t.client.certificateNumber} value={client.certificate_number} />
        <DetailField label={t.client.region} value={client.region} />
        <DetailField label={t.client.eaCode} value={client.ea_code} />
        <DetailField label={t.client.naceCode} value={client.nace_code} />
        <DetailField label={t.client.president} value={client.president} />
        <DetailField label={t.client.managementRepresentative} value={client.management_representative} />
        <DetailField
          label={t.client.foundationDay}
          value={client.foundation_day && formatDate(client.foundation_day)}
        />
        <DetailField
          label={t.client.employeesNumber}
          value={client.employees_number !== null && formatNumber(client.employees_number)}
        />
        <DetailField
          label={t.client.employeesActive}
          value={client.employees_active !== null && formatNumber(client.employees_active)}
        />
        <DetailField label={t.client.phone} value={client.phone} />
        <DetailField label={t.client.handphone} value={client.handphone} />
        <DetailField label={t.client.fax} value={client.fax} />
        <DetailField label={t.client.email} value={client.email} />
        <DetailField label={t.client.website} value={client.website} />
        <DetailField
          label={SEND_REMINDERS_LABEL}
          value={client.send_reminders === 'false' ? t.client.remindersOff : t.client.remindersOn}
        />
        <DetailField label={t.client.city} value={client.city} />
        <DetailField label={t.client.province} value={client.province} />
        <DetailField label={t.client.postcode} value={client.postcode} />
        <DetailField label={t.client.country} value={countryName(client.country)} />
        <DetailField label={t.client.address} value={client.address} wide />
        <DetailField label={t.client.scope} value={client.scope} wide />
      </DetailGrid>
    </EditableSection>
  );
}

function ClientSchemes({ client, onChange }: { client: ClientCertificateDetail; onChange: () => void }) {
  const simpleDates = client.company.simple_dates === 'true';
  const parent = useMemo<SchemeParent>(
    () => ({ id: client.id, company_id: client.company_id, simpleDates }),
    [client.id, client.company_id, simpleDates],
  );
  const form = useMemo(() => schemeForm(parent), [parent]);
  return (
    <SchemeParentProvider value={parent}>
      <ChildSection<Scheme, ReturnType<typeof form.initialValues>>
        title={t.clientDetail.schemes}
        items={client.schema}
        itemTitle={(s) => `${s.cert_name} (${s.cert_number})`}
        itemBadge={(s) => <SchemeBadges scheme={s} />}
        renderItem={(s) => (
          <SchemeDetails scheme={s} clientName={client.name} simpleDates={simpleDates} onChanged={onChange} />
        )}
        entityLabel={t.scheme.entity}
        endpoint="company-certificate-scheme"
        form={form}
        module="company-certificate"
        onChange={onChange}
        emptyText={t.clientDetail.noSchemes}
      />
    </SchemeParentProvider>
  );
}

/**
 * A client's page (`/company-certificate/:id`): its logo, name and company; 'Profile Klien' with every
 * field ('-' when empty) and 'Ubah Profile'; 'Skema Sertifikasi' with one card per scheme. An
 * unknown id, or one outside the header's company, shows 'Opps, Data Tidak Ditemukan'.
 */
export function ClientCertificateDetailPage() {
  const state = useCompanyRecord<ClientCertificateDetail>('company-certificate');
  return (
    <Stack spacing={2}>
      <BackButton fallback="/company-certificate" />
      <RecordView state={state}>
        {(client) => (
          <Stack spacing={2}>
            <ClientHeader client={client} />
            <ClientProfile client={client} onSaved={state.reload} />
            <ClientSchemes client={client} onChange={state.reload} />
            <ClientSites client={client} />
          </Stack>
        )}
      </RecordView>
    </Stack>
  );
}
