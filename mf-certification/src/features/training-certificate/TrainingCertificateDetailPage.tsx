import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { trainingCertificateInputSchema, type TrainingCertificate } from '@sertifikasi/shared-contracts';
import {
  DetailField,
  DetailGrid,
  formatDate,
  RecordView,
  type ResourceFormConfig,
} from '@sertifikasi/shared-ui';
import { BackButton } from '../../components/BackButton';
import { EditableSection } from '../../components/EditableSection';
import { useCompanyRecord } from '../useCompanyRecord';
import { QrImage } from '../../components/QrImage';
import { t } from '../../i18n/id';
import { TrainingFields, trainingBody, trainingFormValues, type TrainingFormValues } from './TrainingFields';

const editForm: ResourceFormConfig<TrainingCertificate, TrainingFormValues> = {
  initialValues: trainingFormValues,
  schema: () => trainingCertificateInputSchema,
  Fields: TrainingFields,
  toBody: (v) => trainingBody(v),
};

function TrainingProfile({ record, onSaved }: { record: TrainingCertificate; onSaved: () => void }) {
  return (
    <EditableSection<TrainingCertificate, TrainingFormValues>
      title={t.trainingDetail.profile}
      record={record}
      permission="training-certificate:edit"
      editLabel={t.trainingDetail.edit}
      editTitle={t.trainingDetail.editTitle}
      form={editForm}
      endpoint="training-certificate"
      entityLabel={t.training.entity}
      onSaved={onSaved}
    >
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={3}>
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <DetailGrid>
            <DetailField label={t.training.name} value={record.name} />
            <DetailField label={t.training.certificateNumber} value={record.certificate_number} />
            <DetailField label={t.training.training} value={record.training} />
            <DetailField label={t.training.date} value={formatDate(record.date)} />
            <DetailField label={t.training.location} value={record.location} />
            <DetailField label={t.common.company} value={record.company.name} />
            <DetailField label={t.training.desc} value={record.desc} wide />
          </DetailGrid>
        </Box>
        {record.qrcode && (
          <Box>
            <Typography variant="caption" color="text.secondary" component="p" sx={{ mb: 1 }}>
              {t.trainingDetail.qr}
            </Typography>
            <QrImage qrcode={record.qrcode} number={record.certificate_number} />
          </Box>
        )}
      </Stack>
    </EditableSection>
  );
}

/**
 * A training certificate's page (`/training-certificate/:id`): 'Profil Personel' with every field,
 * the QR with 'Download QR', and 'Ubah Sertifikasi' (edit permission). An unknown or out-of-scope id
 * shows 'Opps, Data Tidak Ditemukan'.
 */
export function TrainingCertificateDetailPage() {
  const state = useCompanyRecord<TrainingCertificate>('training-certificate');
  return (
    <Stack spacing={2}>
      <BackButton fallback="/training-certificate" />
      <RecordView state={state}>
        {(record) => <TrainingProfile record={record} onSaved={state.reload} />}
      </RecordView>
    </Stack>
  );
}
