import Chip from '@mui/material/Chip';
import { DELIVERY_STATE_LABELS, type DeliveryState } from '@sertifikasi/shared-contracts';

const COLORS: Record<DeliveryState, 'default' | 'success' | 'error'> = {
  queued: 'default',
  sent: 'success',
  failed: 'error',
};

/** Where a message or a webhook delivery stands: 'Antre', 'Terkirim' or 'Gagal'. */
export function DeliveryStateChip({ state }: { state: DeliveryState }) {
  return <Chip size="small" label={DELIVERY_STATE_LABELS[state]} color={COLORS[state]} variant="outlined" />;
}
