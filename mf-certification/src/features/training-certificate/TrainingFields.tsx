import { type TrainingCertificate } from '@sertifikasi/shared-contracts';
import { useFormikContext } from 'formik';
import { CompanyInput, SelectInput, TextInput } from '@sertifikasi/shared-ui';
import { t } from '../../i18n/id';
import { useCertificationLookups } from '../lookups';

export interface TrainingFormValues {
  company_id: string;
  name: string;
  certificate_number: string;
  training: string;
  location: string;
  date: string;
  desc: string;
  /** The certification type the training belongs to ('' for none). */
  certification_id: string;
}

/** The form's values for a training certificate (empty ones for a new one). */
export function trainingFormValues(c: TrainingCertificate | null): TrainingFormValues {
  return {
    company_id: c?.company_id ?? '',
    name: c?.name ?? '',
    certificate_number: c?.certificate_number ?? '',
    training: c?.training ?? '',
    location: c?.location ?? '',
    date: c?.date ?? '',
    desc: c?.desc ?? '',
    certification_id: c?.certification_id ?? '',
  };
}

/** The JSON body: an empty description and no type travel as null. */
export function trainingBody(v: TrainingFormValues): Record<string, unknown> {
  return {
    ...v,
    desc: v.desc.trim() === '' ? null : v.desc,
    certification_id: v.certification_id === '' ? null : v.certification_id,
  };
}

/**
 * A training certificate's fields (docs/rules.md#validation): name, number, training, location and date
 * required, description optional; the company only when the header says ALL. Optionally the
 * certification type it belongs to (of the same company), which the type's trainee count counts.
 */
export function TrainingFields() {
  const { values } = useFormikContext<TrainingFormValues>();
  const { certification } = useCertificationLookups(values.company_id);
  return (
    <>
      <CompanyInput />
      <TextInput name="name" label={t.training.name} required />
      <TextInput name="certificate_number" label={t.training.certificateNumber} required />
      <TextInput name="training" label={t.training.training} required />
      <TextInput name="location" label={t.training.location} required />
      <TextInput name="date" label={t.training.date} type="date" required />
      <SelectInput
        name="certification_id"
        label={t.training.certification}
        options={certification}
        placeholder={t.training.noCertification}
        helperText={t.training.certificationHint}
      />
      <TextInput name="desc" label={t.training.desc} multiline rows={3} />
    </>
  );
}
