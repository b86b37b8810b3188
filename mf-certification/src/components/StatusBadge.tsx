import type { EffectiveStatus } from '@sertifikasi/shared-contracts';
import { StatusChip } from '@sertifikasi/shared-ui';

/** A scheme's effective status as a badge: 'ACTIVE', 'KADALUARSA', 'NOT ACTIVE', ... (shared-ui's StatusChip). */
export function StatusBadge({ status }: { status: EffectiveStatus }) {
  return <StatusChip status={status} />;
}
