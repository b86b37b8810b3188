import {
  CERTIFICATION_IMAGE_LABELS,
  requireImageFiles,
  certificationInputSchema,
  type Certification,
} from '@sertifikasi/shared-contracts';
import {
  CompanyInput,
  ImageInput,
  NameWithImage,
  orDash,
  type ResourceConfig,
  type ResourceFieldsProps,
  TextInput,
} from '@sertifikasi/shared-ui';
import { t } from '../../i18n/id';

export interface CertificationFormValues {
  company_id: string;
  name: string;
  category: string;
  code: string;
  position: number | '';
  icon: string;
  icon_file: File | null;
}

function CertificationFields({ mode }: ResourceFieldsProps<Certification>) {
  return (
    <>
      <CompanyInput />
      <ImageInput name="icon" label={CERTIFICATION_IMAGE_LABELS.icon} required={mode === 'create'} />
      <TextInput name="name" label={t.certification.formName} required />
      <TextInput name="category" label={t.certification.category} required />
      <TextInput name="code" label={t.certification.code} required />
      <TextInput name="position" label={t.certification.position} type="number" required />
    </>
  );
}

/**
 * Certification types ('Sertifikat'): name with icon, code and order number; icon (required on
 * create), name, category, code and order number. `valid_for`/`valid_for_type` have no input
 * (docs/rules.md#validation): an edit leaves them as they are.
 */
export const certificationResource: ResourceConfig<Certification, CertificationFormValues> = {
  title: t.certification.title,
  entityLabel: t.certification.entity,
  endpoint: 'certification',
  module: 'certification',
  searchPlaceholder: t.certification.search,
  companyScoped: true,
  columns: [
    { header: t.certification.name, render: (c) => <NameWithImage name={c.name} image={c.icon} /> },
    { header: t.certification.code, render: (c) => orDash(c.code) },
    { header: t.certification.position, render: (c) => orDash(c.position), align: 'right' },
  ],
  form: {
    initialValues: (c) => ({
      company_id: c?.company_id ?? '',
      name: c?.name ?? '',
      category: c?.category ?? '',
      code: c?.code ?? '',
      position: c?.position ?? '',
      icon: c?.icon ?? '',
      icon_file: null,
    }),
    // A new one needs its image (the API refuses it without); an edit may keep or remove it.
    schema: (mode) =>
      mode === 'create'
        ? requireImageFiles(certificationInputSchema, CERTIFICATION_IMAGE_LABELS)
        : certificationInputSchema,
    Fields: CertificationFields,
    multipart: true,
  },
};
