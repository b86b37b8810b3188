import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import EditIcon from '@mui/icons-material/EditOutlined';
import { trainingInputSchema, type Training } from '@sertifikasi/shared-contracts';
import { useCan } from '@sertifikasi/shared-auth';
import {
  DetailField,
  DetailGrid,
  formatDate,
  RecordFormModal,
  RecordView,
  type ResourceFormConfig,
  useFormModal,
} from '@sertifikasi/shared-ui';
import { BackButton } from '../../components/BackButton';
import { useCompanyRecord } from '../useCompanyRecord';
import { QrImage } from '../../components/QrImage';
import { t } from '../../i18n/id';
import { TrainingFields, trainingBody, trainingFormValues, type TrainingFormValues } from './TrainingFields';

const editForm: ResourceFormConfig<Training, TrainingFormValues> = {
  initialValues: trainingFormValues,
  schema: () => trainingInputSchema,
  Fields: TrainingFields,
  toBody: (v) => trainingBody(v),
};

function TrainingProfile({ record, onSaved }: { record: Training; onSaved: () => void }) {
  const canEdit = useCan('training-certificate:edit');
  const modal = useFormModal<Training>();
  return (
    <Paper variant="outlined" component="section" aria-label={t.trainingDetail.profile} sx={{ p: 2 }}>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={1}
        sx={{ justifyContent: 'space-between', alignItems: { sm: 'center' }, mb: 2 }}
      >
        <Typography variant="h6" component="h2">
          {t.trainingDetail.profile}
        </Typography>
        {canEdit && (
          <Button variant="outlined" startIcon={<EditIcon />} onClick={() => modal.openEdit(record)}>
            {t.trainingDetail.edit}
          </Button>
        )}
      </Stack>
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
      <RecordFormModal<Training, TrainingFormValues>
        modal={modal}
        form={editForm}
        endpoint="training-certificate"
        entityLabel={t.training.entity}
        titles={{ edit: t.trainingDetail.editTitle }}
        onSaved={onSaved}
      />
    </Paper>
  );
}

/**
 * A training certificate's page (`/training-certificate/:id`): 'Profil Personel' with every field,
 * the QR with 'Download QR', and 'Ubah Sertifikasi' (edit permission). An unknown or out-of-scope id
 * shows 'Opps, Data Tidak Ditemukan'.
 */
export function TrainingCertificateDetailPage() {
  const state = useCompanyRecord<Training>('training-certificate');
  return (
    <Stack spacing={2}>
      <BackButton fallback="/training-certificate" />
      <RecordView state={state}>
        {(record) => <TrainingProfile record={record} onSaved={state.reload} />}
      </RecordView>
    </Stack>
  );
}
