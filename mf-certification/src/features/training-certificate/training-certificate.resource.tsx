import {
  routeLink,
  trainingCertificateInputSchema,
  type TRAINING_CERTIFICATE_SORTS,
  type TrainingCertificate,
} from '@sertifikasi/shared-contracts';
import { formatDate, orDash, type ResourceConfig } from '@sertifikasi/shared-ui';
import { t } from '../../i18n/id';
import { importButton } from '../import/ImportButton';
import { TrainingFields, trainingBody, trainingFormValues, type TrainingFormValues } from './TrainingFields';

/** A sort key the training list allows (`sort=<key>`). */
const sort = (key: (typeof TRAINING_CERTIFICATE_SORTS)[number]) => key;

/**
 * Training certificates ('Sertifikasi Pelatihan'): person, number, training and date
 * (DD MMMM YYYY); Edit, Detail, Hapus. JSON bodies.
 */
export const trainingCertificateResource: ResourceConfig<TrainingCertificate, TrainingFormValues> = {
  title: t.training.title,
  entityLabel: t.training.entity,
  endpoint: 'training-certificate',
  module: 'training-certificate',
  searchPlaceholder: t.training.search,
  companyScoped: true,
  columns: [
    { header: t.training.name, render: (c) => orDash(c.name), sortKey: sort('name') },
    {
      header: t.training.certificateNumber,
      render: (c) => orDash(c.certificate_number),
      sortKey: sort('certificate_number'),
    },
    { header: t.training.training, render: (c) => orDash(c.training) },
    { header: t.training.date, render: (c) => formatDate(c.date), sortKey: sort('date') },
  ],
  actions: [{ action: 'edit', label: t.training.edit }, 'detail', 'delete'],
  detail: { href: (c) => routeLink('/training-certificate/:id', { id: c.id }) },
  toolbar: importButton('training-certificate', t.training.title),
  form: {
    initialValues: trainingFormValues,
    schema: () => trainingCertificateInputSchema,
    Fields: TrainingFields,
    toBody: (v) => trainingBody(v),
  },
};
