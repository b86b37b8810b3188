import * as yup from 'yup';
import { optionalText, optionalUuid, outId, outText, refSchema, requiredText, uuidField } from './fields';
import { requiredDate } from './dates';
import { V } from './messages';

/**
 * Training certificates ('Sertifikasi Pelatihan'): one person's certificate of a training. The
 * number is unique across all companies (trimmed, any case); the QR is made on create and again
 * when the number changes. JSON bodies (no images). `certification_id` optionally names the
 * certification type (of the same company) the training belongs to: a type's `student_count` counts
 * the training certificates that name it.
 */
export const trainingCertificateInputSchema = yup
  .object({
    company_id: uuidField('Perusahaan'),
    name: requiredText('Nama Personel', 200),
    certificate_number: requiredText('Nomor Sertifikat', 100),
    training: requiredText('Nama Pelatihan', 300),
    location: requiredText('Lokasi', 300),
    date: requiredDate('Tanggal Sertifikasi'),
    desc: optionalText('Deskripsi', 5000, { multiline: true }),
    certification_id: optionalUuid('Sertifikat'),
  })
  .noUnknown(V.unknown);
export type TrainingCertificateInput = yup.InferType<typeof trainingCertificateInputSchema>;

export const trainingCertificateSchema = yup.object({
  id: outId(),
  company_id: outId(),
  company: refSchema().defined(),
  name: yup.string().defined(),
  certificate_number: yup.string().defined(),
  training: yup.string().defined(),
  location: yup.string().defined(),
  date: yup.string().defined(),
  desc: outText(),
  /** The certification type the training belongs to, if any. */
  certification_id: yup.string().nullable().optional(),
  /** The QR (PNG, base64, no data: prefix) encoding the public check URL. */
  qrcode: outText(),
  created_at: yup.string().defined(),
  updated_at: yup.string().defined(),
});
export type TrainingCertificate = yup.InferType<typeof trainingCertificateSchema>;
