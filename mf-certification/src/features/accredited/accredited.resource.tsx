import {
  accreditedInputSchema,
  ACCREDITED_IMAGE_LABELS,
  requireImageFiles,
  type ACCREDITED_SORTS,
  type Accredited,
} from '@sertifikasi/shared-contracts';
import {
  CompanyInput,
  ImageInput,
  NameWithImage,
  type ResourceConfig,
  type ResourceFieldsProps,
  TextInput,
} from '@sertifikasi/shared-ui';
import { t } from '../../i18n/id';

export interface AccreditedFormValues {
  company_id: string;
  name: string;
  icon: string;
  icon_file: File | null;
}

function AccreditedFields({ mode }: ResourceFieldsProps<Accredited>) {
  return (
    <>
      <CompanyInput />
      <TextInput name="name" label={t.accredited.name} required />
      <ImageInput name="icon" label={ACCREDITED_IMAGE_LABELS.icon} required={mode === 'create'} />
    </>
  );
}

/** Accreditation bodies: name with logo, sortable by name; name and logo (required on create). */
export const accreditedResource: ResourceConfig<Accredited, AccreditedFormValues> = {
  title: t.accredited.title,
  entityLabel: t.accredited.entity,
  endpoint: 'accredited',
  module: 'accredited',
  searchPlaceholder: t.accredited.search,
  companyScoped: true,
  columns: [
    {
      header: t.accredited.name,
      sortKey: 'name' satisfies (typeof ACCREDITED_SORTS)[number],
      render: (a) => <NameWithImage name={a.name} image={a.icon} />,
    },
  ],
  form: {
    initialValues: (a) => ({
      company_id: a?.company_id ?? '',
      name: a?.name ?? '',
      icon: a?.icon ?? '',
      icon_file: null,
    }),
    // A new one needs its image (the API refuses it without); an edit may keep or remove it.
    schema: (mode) =>
      mode === 'create'
        ? requireImageFiles(accreditedInputSchema, ACCREDITED_IMAGE_LABELS)
        : accreditedInputSchema,
    Fields: AccreditedFields,
    multipart: true,
  },
};
