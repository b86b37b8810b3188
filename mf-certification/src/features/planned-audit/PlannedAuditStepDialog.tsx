import { useState } from 'react';
import {
  PLANNED_AUDIT_KIND_LABELS,
  type PlannedAudit,
  type PlannedAuditKind,
  SCHEME_AUDIT_KINDS,
} from '@sertifikasi/shared-contracts';
import { api, notifyApiError, readApiError } from '@sertifikasi/shared-auth';
import { ConfirmDialog, formatDate, showToast } from '@sertifikasi/shared-ui';
import { t } from '../../i18n/id';

const s = t.plan;

/** 'Selesai' (the audit done) or 'Batalkan' (cancelled) of a PLANNED audit. */
export type AuditStep = 'done' | 'cancel';

export interface AuditStepTarget {
  row: PlannedAudit;
  step: AuditStep;
}

/** An audit's dates as the list shows them: one day, or 'from - to'. */
export function auditDates(a: PlannedAudit): string {
  return a.start_date === a.end_date
    ? formatDate(a.start_date)
    : `${formatDate(a.start_date)} - ${formatDate(a.end_date)}`;
}

/** 'Audit Surveilan PT Klien (ISO 9001 · QMS/1), 10 Maret 2026 - 12 Maret 2026,'. */
function auditName(a: PlannedAudit): string {
  const kind = PLANNED_AUDIT_KIND_LABELS[a.kind as PlannedAuditKind] ?? a.kind;
  const scheme = a.scheme.cert_number
    ? `${a.scheme.certification} · ${a.scheme.cert_number}`
    : a.scheme.certification;
  return s.auditName(kind, a.scheme.client, scheme, auditDates(a));
}

/** What confirming does, in the user's terms (docs/rules.md#auditors-and-planned-audits). */
function consequence({ row, step }: AuditStepTarget): string {
  if (step === 'cancel') return s.cancelText(auditName(row));
  return (SCHEME_AUDIT_KINDS as readonly string[]).includes(row.kind)
    ? s.doneCycle(auditName(row))
    : s.doneStage(auditName(row));
}

/** Sends the step; the toast says how it went (a refusal: its message). */
async function act({ row, step }: AuditStepTarget): Promise<void> {
  try {
    await api.post(`planned-audit/${encodeURIComponent(row.id)}/${step}`).json();
    showToast('success', step === 'done' ? s.doneOk : s.cancelOk);
  } catch (err) {
    // A refusal (409, 422: e.g. the audit is no longer PLANNED) says why; anything else is the
    // system's error. readApiError reads the body ky has already read.
    const answer = await readApiError(err);
    if (answer) showToast('warning', answer.message);
    else notifyApiError(err);
  }
}

export interface PlannedAuditStepDialogProps {
  /** The audit and the step asked for; null: closed. */
  target: AuditStepTarget | null;
  /** 'Kembali', Esc or a click outside: nothing is sent. */
  onClose: () => void;
  /** After the call answered (its toast shown), success or refusal: the list reloads. */
  onFinished: () => void;
}

/**
 * Asks before 'Selesai' or 'Batalkan' of a planned audit: neither can be undone (only a PLANNED
 * audit changes), 'Selesai' moves the scheme's certification cycle and 'Batalkan' emails the team.
 * The dismiss button reads 'Kembali', not the dialog's usual 'Batalkan', which here would read as
 * the action itself.
 */
export function PlannedAuditStepDialog({ target, onClose, onFinished }: PlannedAuditStepDialogProps) {
  const [busy, setBusy] = useState(false);
  // The last target stays shown while the dialog closes, so its text does not vanish mid-fade.
  const [shown, setShown] = useState(target);
  if (target && target !== shown) setShown(target);
  const confirm = async () => {
    if (!target || busy) return;
    setBusy(true);
    try {
      await act(target);
    } finally {
      setBusy(false);
    }
    onFinished();
  };
  const cancel = shown?.step === 'cancel';
  return (
    <ConfirmDialog
      open={target !== null}
      busy={busy}
      onCancel={onClose}
      onConfirm={() => void confirm()}
      text={cancel ? s.cancelAsk : s.doneAsk}
      description={shown ? consequence(shown) : undefined}
      confirmLabel={cancel ? s.cancelYes : s.doneYes}
      cancelLabel={t.common.back}
      confirmColor={cancel ? 'error' : 'success'}
    />
  );
}
