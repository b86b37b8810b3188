import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import {
  type Auditor,
  auditorInputSchema,
  EMPLOYMENT_LABELS,
  EMPLOYMENTS,
} from '@sertifikasi/shared-contracts';
import {
  ActiveBadge,
  CompanyInput,
  type ResourceConfig,
  SelectInput,
  SwitchInput,
  TextInput,
} from '@sertifikasi/shared-ui';
import { t } from '../../i18n/id';
import { AuditorLists, type ConflictValues, type QualificationValues } from './AuditorLists';
import { QualificationsCell } from './QualificationsCell';

const s = t.auditors;

export interface AuditorFormValues {
  company_id: string;
  name: string;
  email: string;
  phone: string;
  employment: string;
  active: 'true' | 'false';
  qualifications: QualificationValues[];
  conflicts: ConflictValues[];
}

const EMPLOYMENT_OPTIONS = EMPLOYMENTS.map((value) => ({ value, label: EMPLOYMENT_LABELS[value] }));

function AuditorFields() {
  return (
    <Stack spacing={2} sx={{ pt: 1 }}>
      <CompanyInput />
      <TextInput name="name" label={s.name} required />
      <TextInput name="email" label={s.email} type="email" helperText={s.emailHint} />
      <TextInput name="phone" label={s.phone} />
      <SelectInput
        name="employment"
        label={s.employment}
        options={EMPLOYMENT_OPTIONS}
        placeholder={false}
        required
      />
      <SwitchInput name="active" label={s.active} />
      <AuditorLists />
    </Stack>
  );
}

/**
 * 'Auditor' (permission `auditor`): a company's auditors, their qualifications (type, role, sector
 * codes, validity) and conflicts of interest with clients. An auditor on a planned audit cannot be
 * deleted: the API answers 409 and the screen shows its message; deactivate instead.
 */
export const auditorResource: ResourceConfig<Auditor, AuditorFormValues> = {
  title: s.title,
  entityLabel: s.entity,
  endpoint: 'auditor',
  writePermission: 'auditor',
  searchPlaceholder: s.search,
  companyScoped: true,
  columns: [
    {
      header: s.name,
      render: (a) => (
        <Stack spacing={0.25} sx={{ minWidth: 160 }}>
          <Typography variant="body2">{a.name}</Typography>
          {a.email && (
            <Typography variant="caption" color="text.secondary" sx={{ wordBreak: 'break-all' }}>
              {a.email}
            </Typography>
          )}
        </Stack>
      ),
    },
    {
      header: s.employment,
      render: (a) => EMPLOYMENT_LABELS[a.employment as keyof typeof EMPLOYMENT_LABELS] ?? a.employment,
    },
    {
      header: s.qualifications,
      render: (a) => <QualificationsCell qualifications={a.qualifications} />,
    },
    { header: s.status, render: (a) => <ActiveBadge active={a.active} /> },
  ],
  form: {
    initialValues: (a) => ({
      company_id: a?.company_id ?? '',
      name: a?.name ?? '',
      email: a?.email ?? '',
      phone: a?.phone ?? '',
      employment: a?.employment ?? 'INTERNAL',
      active: a?.active === 'false' ? 'false' : 'true',
      qualifications: (a?.qualifications ?? []).map((q) => ({
        certification_id: q.certification_id,
        role: q.role,
        sector_codes: q.sector_codes.map(String),
        valid_from: q.valid_from,
        valid_until: q.valid_until ?? '',
      })),
      conflicts: (a?.conflicts ?? []).map((c) => ({
        client_id: c.client_id,
        reason: c.reason,
        until: c.until ?? '',
      })),
    }),
    schema: () => auditorInputSchema,
    Fields: AuditorFields,
    toBody: (v) => ({
      ...v,
      qualifications: v.qualifications.map((q) => ({
        ...q,
        sector_codes: q.sector_codes.map(Number),
        valid_until: q.valid_until || null,
      })),
      conflicts: v.conflicts.map((c) => ({ ...c, until: c.until || null })),
    }),
    width: 720,
  },
};
