import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import EventBusyIcon from '@mui/icons-material/EventBusy';
import TaskAltIcon from '@mui/icons-material/TaskAlt';
import {
  PLANNED_AUDIT_KIND_LABELS,
  PLANNED_AUDIT_STATE_LABELS,
  type PlannedAudit,
  plannedAuditInputSchema,
  type PlannedAuditKind,
  type PlannedAuditState,
} from '@sertifikasi/shared-contracts';
import { type ResourceConfig, ResourceScreen } from '@sertifikasi/shared-ui';
import { t } from '../../i18n/id';
import { PlannedAuditFields, type PlannedAuditFormValues } from './PlannedAuditFields';
import { PlannedAuditToolbar, SCHEME_PARAM } from './PlannedAuditExport';
import {
  auditDates,
  type AuditStep,
  type AuditStepTarget,
  PlannedAuditStepDialog,
} from './PlannedAuditStepDialog';

const s = t.plan;

const STATE_COLORS: Record<PlannedAuditState, 'info' | 'success' | 'default'> = {
  PLANNED: 'info',
  DONE: 'success',
  CANCELLED: 'default',
};

const columns: ResourceConfig<PlannedAudit, PlannedAuditFormValues>['columns'] = [
  {
    header: s.scheme,
    render: (a) => (
      <Stack spacing={0.25} sx={{ minWidth: 160 }}>
        <Typography variant="body2">{a.scheme.client}</Typography>
        <Typography variant="caption" color="text.secondary">
          {a.scheme.certification}
          {a.scheme.cert_number ? ` · ${a.scheme.cert_number}` : ''}
        </Typography>
      </Stack>
    ),
  },
  { header: s.kind, render: (a) => PLANNED_AUDIT_KIND_LABELS[a.kind as PlannedAuditKind] ?? a.kind },
  { header: s.dates, render: auditDates },
  { header: s.days, render: (a) => String(a.audit_days).replace('.', ','), align: 'right' },
  { header: s.lead, render: (a) => a.team.find((m) => m.role === 'LEAD_AUDITOR')?.name ?? '-' },
  {
    header: s.state,
    render: (a) => (
      <Chip
        size="small"
        label={PLANNED_AUDIT_STATE_LABELS[a.state as PlannedAuditState] ?? a.state}
        color={STATE_COLORS[a.state as PlannedAuditState] ?? 'default'}
      />
    ),
  },
];

/**
 * 'Rencana Audit' (permission `audit-plan`): the planned audits of the selected company, soonest
 * first; the form (scheme, kind, dates, days with the suggestion, team, notes); 'Selesai' and
 * 'Batalkan' on a PLANNED audit, each confirmed first; 'Export Excel'; `?scheme_id=` (a 'Jadwal
 * Audit' item's link) narrows it to one scheme. The API checks the team rules and names what it refuses.
 */
export function PlannedAuditScreen() {
  // A new key after 'Selesai' or 'Batalkan' mounts the list again: it reloads.
  const [version, setVersion] = useState(0);
  // The step asked for, waiting for its confirmation.
  const [asked, setAsked] = useState<AuditStepTarget | null>(null);
  const schemeId = useSearchParams()[0].get(SCHEME_PARAM);
  const config = useMemo<ResourceConfig<PlannedAudit, PlannedAuditFormValues>>(() => {
    const step = (kind: AuditStep) => (row: PlannedAudit) => setAsked({ row, step: kind });
    const planned = (row: PlannedAudit) => row.state !== 'PLANNED';
    return {
      title: s.title,
      entityLabel: s.entity,
      endpoint: 'planned-audit',
      writePermission: 'audit-plan',
      searchPlaceholder: s.search,
      companyScoped: true,
      columns,
      toolbar: PlannedAuditToolbar,
      listParams: schemeId ? { scheme_id: schemeId } : undefined,
      actions: [
        {
          key: 'done',
          label: s.done,
          icon: <TaskAltIcon fontSize="small" />,
          color: 'success',
          onClick: step('done'),
          permission: 'audit-plan',
          hidden: planned,
        },
        {
          key: 'cancel',
          label: s.cancel,
          icon: <EventBusyIcon fontSize="small" />,
          color: 'warning',
          onClick: step('cancel'),
          permission: 'audit-plan',
          hidden: planned,
        },
        'edit',
        'delete',
      ],
      form: {
        initialValues: (a) => ({
          company_id: a?.company_id ?? '',
          scheme_id: a?.scheme_id ?? '',
          kind: a?.kind ?? 'SURVEILLANCE',
          start_date: a?.start_date ?? '',
          end_date: a?.end_date ?? '',
          audit_days: a ? String(a.audit_days) : '',
          days_reason: a?.days_reason ?? '',
          team: a
            ? a.team.map((m) => ({ auditor_id: m.auditor_id, role: m.role }))
            : [{ auditor_id: '', role: 'LEAD_AUDITOR' }],
          notes: a?.notes ?? '',
        }),
        schema: () => plannedAuditInputSchema,
        Fields: PlannedAuditFields,
        toBody: (v) => ({
          ...v,
          company_id: v.company_id || null,
          audit_days: Number(v.audit_days),
          days_reason: v.days_reason || null,
          notes: v.notes || null,
        }),
        width: 680,
      },
    };
  }, [schemeId]);
  return (
    <>
      <ResourceScreen key={version} config={config} />
      <PlannedAuditStepDialog
        target={asked}
        onClose={() => setAsked(null)}
        onFinished={() => {
          setAsked(null);
          setVersion((v) => v + 1);
        }}
      />
    </>
  );
}
