import {
  type AuditDays,
  type PlannedAudit,
  plannedAuditInputSchema,
  type PlannedAuditKind,
} from '@sertifikasi/shared-contracts';
import { FormModal, saveRecord, useFetch } from '@sertifikasi/shared-ui';
import { t } from '../../i18n/id';
import { PlannedAuditFields, type PlannedAuditFormValues } from './PlannedAuditFields';

export interface PlanTarget {
  companyId: string;
  schemeId: string;
  kind: PlannedAuditKind;
  /** The dialog's title, e.g. 'Rencanakan QMS/001'. */
  title: string;
}

/**
 * 'Rencanakan' from 'Jadwal Audit': the planned-audit form filled with the item's scheme and kind
 * and the days suggested for them (`GET audit-days`), saved as 'Rencana Audit' saves it.
 */
export function PlanFormModal({
  target,
  onClose,
  onSaved,
}: {
  target: PlanTarget | null;
  onClose: () => void;
  onSaved: (audit: PlannedAudit) => void;
}) {
  const path = target
    ? `audit-days?scheme_id=${encodeURIComponent(target.schemeId)}&kind=${target.kind}`
    : null;
  const suggested = useFetch<AuditDays>(path).data?.days ?? null;
  const initialValues: PlannedAuditFormValues = {
    company_id: target?.companyId ?? '',
    scheme_id: target?.schemeId ?? '',
    kind: target?.kind ?? 'SURVEILLANCE',
    start_date: '',
    end_date: '',
    audit_days: suggested === null ? '' : String(suggested),
    days_reason: '',
    team: [{ auditor_id: '', role: 'LEAD_AUDITOR' }],
    notes: '',
  };
  return (
    <FormModal<PlannedAuditFormValues>
      open={target !== null}
      title={target?.title ?? t.plan.entity}
      onClose={onClose}
      initialValues={initialValues}
      validationSchema={plannedAuditInputSchema}
      formKey={`${target?.schemeId ?? 'closed'}:${target?.kind ?? ''}:${suggested ?? ''}`}
      width={680}
      onSubmit={async (values, helpers) => {
        const result = await saveRecord<PlannedAudit>(
          {
            endpoint: 'planned-audit',
            mode: 'create',
            body: {
              ...values,
              audit_days: Number(values.audit_days),
              days_reason: values.days_reason || null,
              notes: values.notes || null,
            },
          },
          helpers,
        );
        if (result.ok) onSaved(result.record);
      }}
    >
      <PlannedAuditFields />
    </FormModal>
  );
}
