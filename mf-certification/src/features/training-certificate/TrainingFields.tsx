import { type Training } from '@sertifikasi/shared-contracts';
import { CompanyInput, TextInput } from '@sertifikasi/shared-ui';
import { t } from '../../i18n/id';

export interface TrainingFormValues {
  company_id: string;
  name: string;
  certificate_number: string;
  training: string;
  location: string;
  date: string;
  desc: string;
}

/** The form's values for a training certificate (empty ones for a new one). */
export function trainingFormValues(c: Training | null): TrainingFormValues {
  return {
    company_id: c?.company_id ?? '',
    name: c?.name ?? '',
    certificate_number: c?.certificate_number ?? '',
    training: c?.training ?? '',
    location: c?.location ?? '',
    date: c?.date ?? '',
    desc: c?.desc ?? '',
  };
}

/** The JSON body: an empty description travels as null. */
export function trainingBody(v: TrainingFormValues): Record<string, unknown> {
  return { ...v, desc: v.desc.trim() === '' ? null : v.desc };
}

/**
 * A training certificate's fields (SPEC.md section 5): name, number, training, location and date
 * required, description optional; the company only when the header says ALL.
 */
export function TrainingFields() {
  return (
    <>
      <CompanyInput />
      <TextInput name="name" label={t.training.name} required />
      <TextInput name="certificate_number" label={t.training.certificateNumber} required />
      <TextInput name="training" label={t.training.training} required />
      <TextInput name="location" label={t.training.location} required />
      <TextInput name="date" label={t.training.date} type="date" required />
      <TextInput name="desc" label={t.training.desc} multiline rows={3} />
    </>
  );
}
