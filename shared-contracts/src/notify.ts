/**
 * Who is told (docs/product.md "Notifications"): the mail outbox as 'Log Notifikasi' lists it, and
 * the webhooks of a company with their deliveries ('Webhook'). One place for the vocabularies,
 * the inputs and the answers, used by the API, the screens and the tests.
 */
import * as yup from 'yup';
import {
  flagField,
  noControlChars,
  optionalText,
  outId,
  outText,
  refSchema,
  trimString,
  uuidField,
} from './fields';
import { companyListQuerySchema } from './list';
import { V } from './messages';

/** Where a message or a webhook delivery stands. */
export const DELIVERY_STATES = ['queued', 'sent', 'failed'] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];
export const DELIVERY_STATE_LABELS: Record<DeliveryState, string> = {
  queued: 'Antre',
  sent: 'Terkirim',
  failed: 'Gagal',
};

/** What an email is (the outbox's `kind`). */
export const MAIL_KINDS = ['audit-reminder', 'expiry-reminder', 'weekly-digest', 'audit-plan'] as const;
export type MailKind = (typeof MAIL_KINDS)[number];
export const MAIL_KIND_LABELS: Record<MailKind, string> = {
  'audit-reminder': 'Pengingat Audit',
  'expiry-reminder': 'Pengingat Kadaluarsa',
  'weekly-digest': 'Ringkasan Mingguan',
  'audit-plan': 'Rencana Audit',
};

/** The message an unsent email carries when no SMTP server is configured. */
export const SMTP_NOT_SET = 'SMTP belum diatur';

/** The query of 'Log Notifikasi': the list query, `company_id`, and filters by state and kind. */
export const notificationListQuerySchema = companyListQuerySchema.shape({
  state: yup
    .string()
    .transform((v: unknown) => (v === '' ? undefined : v))
    .oneOf([...DELIVERY_STATES], V.oneOf('Status'))
    .optional(),
  kind: yup
    .string()
    .transform((v: unknown) => (v === '' ? undefined : v))
    .oneOf([...MAIL_KINDS], V.oneOf('Jenis'))
    .optional(),
});
export type NotificationListQuery = yup.InferType<typeof notificationListQuerySchema>;

/** One message of the outbox as 'Log Notifikasi' shows it (the body is not listed). */
export const notificationSchema = yup.object({
  id: outId(),
  company_id: outText(),
  company: refSchema().nullable().defined(),
  recipient: yup.string().defined(),
  subject: yup.string().defined(),
  kind: yup.string().defined(),
  state: yup
    .string()
    .oneOf([...DELIVERY_STATES])
    .defined(),
  attempts: yup.number().defined(),
  last_error: outText(),
  next_attempt_at: yup.string().defined(),
  sent_at: outText(),
  created_at: yup.string().defined(),
});
export type Notification = yup.InferType<typeof notificationSchema>;

/** The events a webhook may want. `reminder.due` comes with the reminders. */
export const WEBHOOK_EVENTS = [
  'scheme.created',
  'scheme.updated',
  'scheme.status_changed',
  'scheme.deleted',
  'training.created',
  'training.updated',
  'training.deleted',
  'reminder.due',
  'audit.planned',
  'audit.updated',
  'audit.done',
  'audit.cancelled',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
/** The type of the body 'Kirim Tes' sends. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

export const WEBHOOK_EVENT_LABELS: Record<WebhookEvent, string> = {
  'scheme.created': 'Skema dibuat',
  'scheme.updated': 'Skema diubah',
  'scheme.status_changed': 'Status skema berubah',
  'scheme.deleted': 'Skema dihapus',
  'training.created': 'Sertifikat pelatihan dibuat',
  'training.updated': 'Sertifikat pelatihan diubah',
  'training.deleted': 'Sertifikat pelatihan dihapus',
  'reminder.due': 'Pengingat jatuh tempo',
  'audit.planned': 'Audit direncanakan',
  'audit.updated': 'Rencana audit diubah',
  'audit.done': 'Audit selesai',
  'audit.cancelled': 'Rencana audit dibatalkan',
};

const URL_LABEL = 'URL';

/**
 * A webhook's address: http(s) only here; the API adds HTTPS-only and the refusal of private,
 * loopback and link-local networks (unless the deployment allows them).
 */
const webhookUrlField = () =>
  yup
    .string()
    .typeError(V.string(URL_LABEL))
    .transform(trimString)
    .max(2000, V.max(URL_LABEL, 2000))
    .test(noControlChars(URL_LABEL))
    .test('http-url', V.url(URL_LABEL), (v) => v === undefined || isHttpUrl(v))
    .required(V.required(URL_LABEL));

/**
 * An http(s) URL with a host, as WHATWG URL reads it (IP literals and single-label intranet names
 * included: closed networks may allow them; yup's own url() refuses both).
 */
function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '';
  } catch {
    return false;
  }
}

export const webhookInputSchema = yup
  .object({
    company_id: uuidField('Perusahaan'),
    url: webhookUrlField(),
    description: optionalText('Keterangan', 500),
    events: yup
      .array(
        yup
          .string()
          .oneOf([...WEBHOOK_EVENTS], V.oneOf('Event'))
          .defined(),
      )
      .typeError('Event harus berupa daftar')
      .min(1, 'Pilih minimal satu event')
      .required('Pilih minimal satu event'),
    is_active: flagField('Status', 'true'),
  })
  .noUnknown(V.unknown);
export type WebhookInput = yup.InferType<typeof webhookInputSchema>;

/** A webhook as lists show it: never its secret. */
export const webhookSchema = yup.object({
  id: outId(),
  company_id: outId(),
  company: refSchema().defined(),
  url: yup.string().defined(),
  description: outText(),
  events: yup.array(yup.string().defined()).defined(),
  is_active: yup.string().oneOf(['true', 'false']).defined(),
  /** Failed tries in a row (0 after a 2xx); from 5 on the endpoint is paused. */
  consecutive_failures: yup.number().defined(),
  /** Its deliveries wait until then (the breaker); null: not paused. */
  paused_until: outText(),
  created_at: yup.string().defined(),
  updated_at: yup.string().defined(),
});
export type Webhook = yup.InferType<typeof webhookSchema>;

/** The create answer: the webhook and its secret, shown this once. */
export const webhookCreatedSchema = webhookSchema.shape({ secret: yup.string().defined() });
export type WebhookCreated = yup.InferType<typeof webhookCreatedSchema>;

/** One try of a delivery. */
export const webhookAttemptSchema = yup.object({
  at: yup.string().defined(),
  status: yup.number().nullable().defined(),
  duration_ms: yup.number().defined(),
  error: outText(),
});
export type WebhookAttempt = yup.InferType<typeof webhookAttemptSchema>;

/** One event sent to a webhook, with its tries (newest first). */
export const webhookDeliverySchema = yup.object({
  id: outId(),
  webhook_id: outId(),
  event_type: yup.string().defined(),
  state: yup
    .string()
    .oneOf([...DELIVERY_STATES])
    .defined(),
  attempts: yup.number().defined(),
  last_status: yup.number().nullable().defined(),
  last_error: outText(),
  next_attempt_at: yup.string().defined(),
  sent_at: outText(),
  created_at: yup.string().defined(),
  tries: yup.array(webhookAttemptSchema).defined(),
});
export type WebhookDelivery = yup.InferType<typeof webhookDeliverySchema>;
