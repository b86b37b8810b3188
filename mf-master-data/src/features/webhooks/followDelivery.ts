import type { WebhookDelivery } from '@sertifikasi/shared-contracts';
import { api } from '@sertifikasi/shared-auth';

/** How often, and how long at most, a screen asks after a delivery it queued. */
export const FOLLOW_EVERY_MS = 500;
export const FOLLOW_FOR_MS = 15_000;

export type DeliveryTry = WebhookDelivery['tries'][number];

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Follows a delivery that 'Kirim Tes' or 'Kirim Ulang' queued (the sender job tries it within
 * seconds: docs/rules.md#notifications): asks for it every FOLLOW_EVERY_MS until a try beyond the
 * `triesBefore` it had is logged, and answers that try (the newest); null when none came within
 * FOLLOW_FOR_MS or `stop` was aborted. A failed ask is asked again at the next turn.
 */
export async function followDelivery(
  id: string,
  triesBefore: number,
  stop?: AbortSignal,
): Promise<DeliveryTry | null> {
  const end = Date.now() + FOLLOW_FOR_MS;
  while (Date.now() < end && !stop?.aborted) {
    await pause(FOLLOW_EVERY_MS);
    if (stop?.aborted) return null;
    try {
      const delivery = await api.get(`webhook-delivery/${id}`).json<WebhookDelivery>();
      if (delivery.tries.length > triesBefore) return delivery.tries[0] ?? null;
    } catch {
      // The network, a restart: ask again.
    }
  }
  return null;
}
