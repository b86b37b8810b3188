import Chip from '@mui/material/Chip';
import { EFFECTIVE_STATUS_LABELS, type EffectiveStatus } from '@sertifikasi/shared-contracts';

const COLORS: Record<EffectiveStatus, 'success' | 'error' | 'warning' | 'default' | 'info'> = {
  ACTIVE: 'success',
  EXPIRED: 'error',
  SUSPENDED: 'warning',
  WITHDRAWN: 'error',
  NOACTIVE: 'default',
  DRAFT: 'info',
};

/** A scheme's effective status as a badge: 'ACTIVE', 'KADALUARSA', 'NOT ACTIVE', ... */
export function StatusBadge({ status }: { status: EffectiveStatus }) {
  return (
    <Chip
      size="small"
      label={EFFECTIVE_STATUS_LABELS[status]}
      color={COLORS[status]}
      variant={status === 'NOACTIVE' ? 'outlined' : 'filled'}
      sx={{ fontWeight: 600 }}
    />
  );
}
