import {
  createWebhookRequest,
  personalWebhookEvents,
  webhookEvents,
  type Webhook,
  type WebhookEvent,
} from '@peeks/contracts';
import { useId } from 'react';
import { useFormContext } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../ui/Dialog.tsx';
import { TextField, useFieldError } from '../../ui/fields.tsx';
import { Form, SubmitButton, useSpecForm } from '../../ui/form.tsx';
import { createWebhook, updateWebhook } from './webhooks-api.ts';

/** The Add/Edit Webhook modal (spec §2, §5 "Webhook"): state radios (enabled by default), URL, event checkboxes. */
export function WebhookFormDialog({
  webhook,
  personal,
  onCreated,
  onUpdated,
  onClose,
}: {
  webhook?: Webhook;
  personal: boolean;
  onCreated: (secret: string, webhook: Webhook) => void;
  onUpdated: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const spec = useSpecForm(createWebhookRequest, {
    state: webhook?.state ?? 'enabled',
    url: webhook?.url ?? '',
    events: webhook?.events ?? [],
  });
  const events: readonly WebhookEvent[] = personal ? personalWebhookEvents : webhookEvents;
  const save = async (values: { state: Webhook['state']; url: string; events: WebhookEvent[] }) => {
    const form = { ...values, ...(personal ? { merchant_id: null } : {}) };
    if (webhook) {
      await updateWebhook({ ...form, webhook_id: webhook.webhook_id });
      onUpdated();
    } else {
      const answer = await createWebhook(form);
      onCreated(answer.data.secret, answer.data.webhook);
    }
  };
  return (
    <Dialog title={webhook ? t('webhooks.edit_title') : t('webhooks.add_title')} onClose={onClose}>
      <Form spec={spec} onSubmit={save}>
        <StateRadios />
        <TextField name="url" label={t('webhooks.url')} type="url" inputMode="url" autoComplete="off" />
        <EventBoxes events={events} />
        <div className="buttons">
          <button type="button" className="button" onClick={onClose}>
            {t('webhooks.close')}
          </button>
          <SubmitButton>{t('webhooks.save')}</SubmitButton>
        </div>
      </Form>
    </Dialog>
  );
}

function StateRadios() {
  const { t } = useTranslation();
  const { register } = useFormContext();
  const legendId = useId();
  const error = useFieldError('state');
  return (
    <fieldset className="field choice-group" aria-describedby={error ? `${legendId}-error` : undefined}>
      <legend id={legendId}>{t('webhooks.state')}</legend>
      {(['enabled', 'disabled'] as const).map((state) => (
        <label key={state} className="choice">
          <input type="radio" value={state} {...register('state')} /> {t(`webhooks.${state}`)}
        </label>
      ))}
      <p id={`${legendId}-error`} className="field-error" aria-live="polite">
        {error}
      </p>
    </fieldset>
  );
}

function EventBoxes({ events }: { events: readonly WebhookEvent[] }) {
  const { t } = useTranslation();
  const { register } = useFormContext();
  const legendId = useId();
  const error = useFieldError('events');
  return (
    <fieldset className="field choice-group" aria-describedby={error ? `${legendId}-error` : undefined}>
      <legend id={legendId}>{t('webhooks.events')}</legend>
      {events.map((event) => (
        <label key={event} className="choice">
          <input type="checkbox" value={event} {...register('events')} /> {t(`webhooks.event_names.${event}`)}
        </label>
      ))}
      <p id={`${legendId}-error`} className="field-error" aria-live="polite">
        {error}
      </p>
    </fieldset>
  );
}
