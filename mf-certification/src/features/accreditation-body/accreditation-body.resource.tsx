import {
  accreditationBodyInputSchema,
  ACCREDITATION_BODY_IMAGE_LABELS,
  requireImageFiles,
  type ACCREDITATION_BODY_SORTS,
  type AccreditationBody,
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

export interface AccreditationBodyFormValues {
  company_id: string;
  name: string;
  acronym: string;
  icon: string;
  icon_file: File | null;
}

function AccreditationBodyFields({ mode }: ResourceFieldsProps<AccreditationBody>) {
  return (
    <>
      <CompanyInput />
      <TextInput name="name" label={t.accreditationBody.name} required />
      <TextInput name="acronym" label={t.accreditationBody.acronym} placeholder="KAN" />
      <ImageInput name="icon" label={ACCREDITATION_BODY_IMAGE_LABELS.icon} required={mode === 'create'} />
    </>
  );
}

/** Accreditation bodies: name with logo, sortable by name; name and logo (required on create). */
export const accreditationBodyResource: ResourceConfig<AccreditationBody, AccreditationBodyFormValues> = {
  title: t.accreditationBody.title,
  entityLabel: t.accreditationBody.entity,
  endpoint: 'accredited',
  module: 'accredited',
  searchPlaceholder: t.accreditationBody.search,
  companyScoped: true,
  columns: [
    {
      header: t.accreditationBody.name,
      sortKey: 'name' satisfies (typeof ACCREDITATION_BODY_SORTS)[number],
      render: (a) => <NameWithImage name={a.name} image={a.icon} />,
    },
    { header: t.accreditationBody.acronym, render: (a) => a.acronym ?? '-' },
  ],
  form: {
    initialValues: (a) => ({
      company_id: a?.company_id ?? '',
      name: a?.name ?? '',
      acronym: a?.acronym ?? '',
      icon: a?.icon ?? '',
      icon_file: null,
    }),
    // A new one needs its image (the API refuses it without); an edit may keep or remove it.
    schema: (mode) =>
      mode === 'create'
        ? requireImageFiles(accreditationBodyInputSchema, ACCREDITATION_BODY_IMAGE_LABELS)
        : accreditationBodyInputSchema,
    Fields: AccreditationBodyFields,
    multipart: true,
  },
};
