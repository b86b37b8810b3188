import {
  SCHEME_AUDIT_KIND_LABELS,
  SCHEME_AUDIT_KINDS,
  type SchemeAudit,
  schemeAuditInputSchema,
  type SchemeAuditKind,
} from '@sertifikasi/shared-contracts';
import { FormModal, saveRecord, SelectInput, type SelectOption, TextInput } from '@sertifikasi/shared-ui';
import { t } from '../../i18n/id';

export interface AuditFormValues {
  kind: SchemeAuditKind | '';
  date: string;
  notes: string;
}

const kindOptions: SelectOption[] = SCHEME_AUDIT_KINDS.map((k) => ({
  value: k,
  label: SCHEME_AUDIT_KIND_LABELS[k],
}));

export interface AuditFormModalProps {
  /** Open for this scheme (recording a new audit) or this audit (changing it); closed when null. */
  target: { schemeId: string; audit: SchemeAudit | null; kind?: SchemeAuditKind; date?: string } | null;
  /** The dialog's title, e.g. 'Catat Audit QMS/001' or 'Ubah Audit'. */
  title: string;
  onClose: () => void;
  /** After a successful save (the toast is shown). */
  onSaved: (audit: SchemeAudit) => void;
}

/**
 * The form of an audit done (docs/product.md, "The certification cycle"): kind, date and notes.
 * Records one on a scheme (`POST company-certificate-scheme/{id}/audits`) or changes one
 * (`PUT scheme-audits/{id}`); the 'Riwayat Audit' dialog and the schedule's 'Catat Audit' both use it.
 */
export function AuditFormModal({ target, title, onClose, onSaved }: AuditFormModalProps) {
  const audit = target?.audit ?? null;
  const initialValues: AuditFormValues = {
    kind: audit?.kind ?? target?.kind ?? '',
    date: audit?.date ?? target?.date ?? '',
    notes: audit?.notes ?? '',
  };
  return (
    <FormModal<AuditFormValues>
      open={target !== null}
      title={title}
      onClose={onClose}
      initialValues={initialValues}
      validationSchema={schemeAuditInputSchema}
      formKey={audit?.id ?? target?.schemeId ?? 'closed'}
      onSubmit={async (values, helpers) => {
        if (!target) return;
        const body = {
          kind: values.kind,
          date: values.date,
          notes: values.notes.trim() === '' ? null : values.notes,
        };
        const result = await saveRecord<SchemeAudit, AuditFormValues>(
          audit
            ? { endpoint: 'scheme-audits', id: audit.id, body }
            : {
                endpoint: `company-certificate-scheme/${encodeURIComponent(target.schemeId)}/audits`,
                mode: 'create',
                body,
              },
          helpers,
        );
        if (result.ok) onSaved(result.record);
      }}
    >
      <SelectInput name="kind" label={t.audits.kind} options={kindOptions} required />
      <TextInput name="date" label={t.audits.date} type="date" required />
      <TextInput name="notes" label={t.audits.notes} multiline rows={3} />
    </FormModal>
  );
}
