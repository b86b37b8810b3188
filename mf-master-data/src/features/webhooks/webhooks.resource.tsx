import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import {
  type Webhook,
  WEBHOOK_EVENT_LABELS,
  WEBHOOK_EVENTS,
  type WebhookEvent,
  webhookInputSchema,
} from '@sertifikasi/shared-contracts';
import {
  ActiveBadge,
  CompanyInput,
  MultiSelectInput,
  type ResourceConfig,
  SwitchInput,
  TextInput,
} from '@sertifikasi/shared-ui';
import { t } from '../../i18n/id';

const s = t.webhooks;

export interface WebhookFormValues {
  company_id: string;
  url: string;
  description: string;
  events: string[];
  is_active: 'true' | 'false';
}

const EVENT_OPTIONS = WEBHOOK_EVENTS.map((value) => ({
  value,
  label: `${WEBHOOK_EVENT_LABELS[value]} (${value})`,
}));
const eventLabel = (event: string) => WEBHOOK_EVENT_LABELS[event as WebhookEvent] ?? event;

/** A webhook stays with its company (its secret and deliveries are that company's): fixed on 'Ubah'. */
function WebhookFields({ mode }: { mode: 'create' | 'edit' }) {
  return (
    <Stack spacing={2} sx={{ pt: 1 }}>
      <CompanyInput disabled={mode === 'edit'} />
      <TextInput name="url" label={s.url} type="url" required helperText={s.urlHint} />
      <TextInput name="description" label={s.description} />
      <MultiSelectInput name="events" label={s.events} required options={EVENT_OPTIONS} />
      <SwitchInput name="is_active" label={s.active} />
    </Stack>
  );
}

/**
 * Webhooks of a company: URL (and its description), the events it wants, status. One permission
 * (`webhook`) covers looking and changing. The screen (WebhookScreen) adds 'Kirim Tes', the
 * deliveries and the secret shown once.
 */
export const webhookResource: ResourceConfig<Webhook, WebhookFormValues> = {
  title: s.title,
  entityLabel: s.entity,
  endpoint: 'webhook',
  writePermission: 'webhook',
  searchPlaceholder: s.search,
  companyScoped: true,
  columns: [
    {
      header: s.url,
      render: (w) => (
        <Stack spacing={0.25} sx={{ minWidth: 200 }}>
          <Typography variant="body2" sx={{ wordBreak: 'break-all' }}>
            {w.url}
          </Typography>
          {w.description && (
            <Typography variant="caption" color="text.secondary">
              {w.description}
            </Typography>
          )}
        </Stack>
      ),
    },
    {
      header: s.events,
      // Wide enough that a webhook with every event stays a few lines tall on a phone too (the
      // table scrolls sideways in its own box there).
      render: (w) => (
        <Typography variant="body2" sx={{ minWidth: 240 }}>
          {w.events.map(eventLabel).join(', ')}
        </Typography>
      ),
    },
    { header: s.status, render: (w) => <ActiveBadge active={w.is_active} /> },
  ],
  form: {
    initialValues: (w) => ({
      company_id: w?.company_id ?? '',
      url: w?.url ?? '',
      description: w?.description ?? '',
      events: w ? [...w.events] : [],
      is_active: w?.is_active ?? 'true',
    }),
    schema: () => webhookInputSchema,
    Fields: WebhookFields,
    width: 650,
  },
};
