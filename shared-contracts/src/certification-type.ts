import * as yup from 'yup';
import {
  imageFileField,
  imageNameField,
  methodOverrideField,
  optionalInteger,
  optionalOneOf,
  outId,
  outText,
  refSchema,
  requiredInteger,
  requiredText,
  uuidField,
} from './fields';
import { V } from './messages';
import { VALID_FOR_TYPES } from './statuses';

/**
 * Certification types ('Sertifikat', docs/rules.md#entities and #validation): ISO standards and the like that a
 * certification body issues. The icon is required on create (the API refuses a new type without
 * `icon_file`); `student_count` is derived (training certificates of the type).
 */
export const CERTIFICATION_TYPE_IMAGE_LABELS = { icon: 'Icon' } as const;

export const certificationTypeInputSchema = yup
  .object({
    company_id: uuidField('Perusahaan'),
    name: requiredText('Nama Sertifikat', 200),
    category: requiredText('Kategori', 100),
    code: requiredText('Kode', 50),
    position: requiredInteger('No. Urut', 0, 1_000_000),
    valid_for: optionalInteger('Masa Berlaku', 1, 1000),
    valid_for_type: optionalOneOf('Satuan Masa Berlaku', VALID_FOR_TYPES),
    icon: imageNameField('Icon'),
    icon_file: imageFileField('Icon'),
    _method: methodOverrideField(),
  })
  .noUnknown(V.unknown);
export type CertificationTypeInput = yup.InferType<typeof certificationTypeInputSchema>;

export const certificationTypeSchema = yup.object({
  id: outId(),
  company_id: outId(),
  company: refSchema().defined(),
  name: yup.string().defined(),
  category: yup.string().defined(),
  code: yup.string().defined(),
  position: yup.number().defined(),
  valid_for: yup.number().nullable().defined(),
  valid_for_type: yup
    .string()
    .oneOf([...VALID_FOR_TYPES])
    .nullable()
    .defined(),
  icon: outText(),
  student_count: yup.number().defined(),
  created_at: yup.string().defined(),
  updated_at: yup.string().defined(),
});
export type CertificationType = yup.InferType<typeof certificationTypeSchema>;
