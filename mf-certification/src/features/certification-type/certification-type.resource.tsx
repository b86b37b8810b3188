import {
  CERTIFICATION_TYPE_IMAGE_LABELS,
  requireImageFiles,
  certificationTypeInputSchema,
  type CertificationType,
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

export interface CertificationTypeFormValues {
  company_id: string;
  name: string;
  category: string;
  code: string;
  position: number | '';
  icon: string;
  icon_file: File | null;
}

function CertificationTypeFields({ mode }: ResourceFieldsProps<CertificationType>) {
  return (
    <>
      <CompanyInput />
      <ImageInput name="icon" label={CERTIFICATION_TYPE_IMAGE_LABELS.icon} required={mode === 'create'} />
      <TextInput name="name" label={t.certificationType.formName} required />
      <TextInput name="category" label={t.certificationType.category} required />
      <TextInput name="code" label={t.certificationType.code} required />
      <TextInput name="position" label={t.certificationType.position} type="number" required />
    </>
  );
}

/**
 * Certification types ('Sertifikat'): name with icon, code and order number; icon (required on
 * create), name, category, code and order number. `valid_for`/`valid_for_type` have no input
 * (docs/rules.md#validation): an edit leaves them as they are.
 */
export const certificationTypeResource: ResourceConfig<CertificationType, CertificationTypeFormValues> = {
  title: t.certificationType.title,
  entityLabel: t.certificationType.entity,
  endpoint: 'certification',
  module: 'certification',
  searchPlaceholder: t.certificationType.search,
  companyScoped: true,
  columns: [
    { header: t.certificationType.name, render: (c) => <NameWithImage name={c.name} image={c.icon} /> },
    { header: t.certificationType.code, render: (c) => orDash(c.code) },
    { header: t.certificationType.position, render: (c) => orDash(c.position), align: 'right' },
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
        ? requireImageFiles(certificationTypeInputSchema, CERTIFICATION_TYPE_IMAGE_LABELS)
        : certificationTypeInputSchema,
    Fields: CertificationTypeFields,
    multipart: true,
  },
};
