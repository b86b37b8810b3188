import * as yup from 'yup';
import { nameField } from './auth';
import {
  flagField,
  imageFileField,
  imageNameField,
  methodOverrideField,
  optionalEmail,
  optionalText,
  outId,
  outText,
  requiredUrl,
} from './fields';
import { V } from './messages';

/** The image fields of a company; each also accepts an upload as `<field>_file`. */
export const COMPANY_IMAGE_FIELDS = ['logo', 'logo_cert', 'ttd_cert'] as const;
export const COMPANY_IMAGE_LABELS = {
  logo: 'Logo',
  logo_cert: 'Logo Sertifikat',
  ttd_cert: 'Tanda Tangan Sertifikat',
} as const;

export const companyInputSchema = yup
  .object({
    name: nameField('Nama Perusahaan'),
    email: optionalEmail(),
    phone: optionalText('Telepon', 50),
    address: optionalText('Alamat', 1000, { multiline: true }),
    website: requiredUrl(),
    logo: imageNameField('Logo'),
    logo_cert: imageNameField('Logo Sertifikat'),
    ttd_cert: imageNameField('Tanda Tangan Sertifikat'),
    logo_file: imageFileField('Logo'),
    logo_cert_file: imageFileField('Logo Sertifikat'),
    ttd_cert_file: imageFileField('Tanda Tangan Sertifikat'),
    /** Verification shows only Issue Date and Expire Date; the scheme form hides the surveillance date. */
    simple_dates: flagField('Tanggal Sederhana', 'false'),
    /** The public page offers 'Download Certificate'. */
    public_certificate_download: flagField('Unduh Sertifikat Publik', 'false'),
    _method: methodOverrideField(),
  })
  .noUnknown(V.unknown);
export type CompanyInput = yup.InferType<typeof companyInputSchema>;

export const companySchema = yup.object({
  id: outId(),
  name: yup.string().defined(),
  email: outText(),
  phone: outText(),
  address: outText(),
  website: outText(),
  logo: outText(),
  logo_cert: outText(),
  ttd_cert: outText(),
  simple_dates: yup.string().oneOf(['true', 'false']).defined(),
  public_certificate_download: yup.string().oneOf(['true', 'false']).defined(),
  student_count: yup.number().defined(),
  created_at: yup.string().defined(),
  updated_at: yup.string().defined(),
});
export type Company = yup.InferType<typeof companySchema>;

export const companyOptionSchema = yup.object({ id: outId(), name: yup.string().defined() });
export type CompanyOption = yup.InferType<typeof companyOptionSchema>;
