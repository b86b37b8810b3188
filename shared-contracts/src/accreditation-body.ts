import * as yup from 'yup';
import {
  imageFileField,
  imageNameField,
  methodOverrideField,
  optionalText,
  outId,
  outText,
  refSchema,
  requiredText,
  uuidField,
} from './fields';
import { V } from './messages';

/** Accreditation bodies ('Akreditasi'): name and logo (required on create), per company. */
export const ACCREDITATION_BODY_IMAGE_LABELS = { icon: 'Logo' } as const;

export const accreditationBodyInputSchema = yup
  .object({
    company_id: uuidField('Perusahaan'),
    name: requiredText('Nama', 200),
    acronym: optionalText('Singkatan', 50),
    icon: imageNameField('Logo'),
    icon_file: imageFileField('Logo'),
    _method: methodOverrideField(),
  })
  .noUnknown(V.unknown);
export type AccreditationBodyInput = yup.InferType<typeof accreditationBodyInputSchema>;

export const accreditationBodySchema = yup.object({
  id: outId(),
  company_id: outId(),
  company: refSchema().defined(),
  name: yup.string().defined(),
  acronym: outText(),
  icon: outText(),
  created_at: yup.string().defined(),
  updated_at: yup.string().defined(),
});
export type AccreditationBody = yup.InferType<typeof accreditationBodySchema>;

/** Sort keys of the accreditation list (`sort=name&order=asc|desc`). */
export const ACCREDITATION_BODY_SORTS = ['name'] as const;
