import {
  clientCertificateInputSchema,
  type CLIENT_CERTIFICATE_SORTS,
  routeLink,
  type ClientCertificate,
} from '@sertifikasi/shared-contracts';
import { NameWithImage, orDash, type ResourceConfig } from '@sertifikasi/shared-ui';
import { t } from '../../i18n/id';
import { importButton } from '../import/ImportButton';
import { ClientFields, clientFormValues, type ClientFormValues } from './ClientFields';

/** A sort key the client list allows (`sort=<key>`). */
const sort = (key: (typeof CLIENT_CERTIFICATE_SORTS)[number]) => key;

/** The client form's schema (the list's modal and the detail page's profile form): the logo is optional. */
export const clientFormSchema = () => clientCertificateInputSchema;

/** Client certificates ('Sertifikasi Perusahaan'): name with logo, number, region; Ubah, Detail, Hapus. */
export const clientCertificateResource: ResourceConfig<ClientCertificate, ClientFormValues> = {
  title: t.client.title,
  entityLabel: t.client.entity,
  endpoint: 'company-certificate',
  module: 'company-certificate',
  searchPlaceholder: t.client.search,
  companyScoped: true,
  columns: [
    {
      header: t.client.name,
      render: (c) => <NameWithImage name={c.name} image={c.logo} />,
      sortKey: sort('name'),
    },
    {
      header: t.client.certificateNumber,
      render: (c) => orDash(c.certificate_number),
      sortKey: sort('certificate_number'),
    },
    { header: t.client.region, render: (c) => orDash(c.region), sortKey: sort('region') },
  ],
  actions: ['edit', 'detail', 'delete'],
  detail: { href: (c) => routeLink('/company-certificate/:id', { id: c.id }) },
  toolbar: importButton('company-certificate', t.client.title),
  form: {
    initialValues: clientFormValues,
    schema: clientFormSchema,
    Fields: ClientFields,
    multipart: true,
    width: 800,
  },
};
