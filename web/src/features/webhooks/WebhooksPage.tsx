import type { Webhook } from '@peeks/contracts';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { ServerErrors } from '../../ui/feedback.tsx';
import { PageLoader } from '../../ui/PageLoader.tsx';
import { QueryView } from '../../ui/QueryView.tsx';
import { toast } from '../../ui/toasts.tsx';
import { isMerchant, session } from '../session/index.ts';
import { DeliveryLogDialog } from './DeliveryLogDialog.tsx';
import { SecretDialog, VerificationSnippet } from './SecretDialog.tsx';
import { WebhookFormDialog } from './WebhookFormDialog.tsx';
import { deleteWebhook, rotateSecret, useWebhooks } from './webhooks-api.ts';
import { addLaterTexts } from '../../i18n/later-texts.ts';
import { webhooksTexts } from './i18n.ts';
import { formatDateTime } from '../../lib/dates.ts';

// Its own chunk: the texts come with it, not with the first load.
addLaterTexts(webhooksTexts);

type Open =
  | { dialog: 'none' }
  | { dialog: 'form'; webhook?: Webhook }
  | { dialog: 'delete'; webhook: Webhook }
  | { dialog: 'rotate'; webhook: Webhook }
  | { dialog: 'secret'; secret: string }
  | { dialog: 'log'; webhook: Webhook };

/**
 * The webhooks table (spec §2 "Webhooks page": State, URL, Events, Actions,
 * Add Webhook), for merchants and personal users alike, with what Stripe and
 * Svix give their users beside it: the secret shown once with Copy and
 * Rotate, the delivery log with Replay and Send test event, and how to
 * check a signature.
 */
export function WebhooksPanel({ headingLevel = 1 }: { headingLevel?: 1 | 2 }) {
  const { t, i18n } = useTranslation();
  const titleId = useId();
  const { user } = useSnapshot(session);
  const personal = !isMerchant(user);
  const webhooks = useWebhooks();
  const [open, setOpen] = useState<Open>({ dialog: 'none' });
  const close = () => {
    setOpen({ dialog: 'none' });
  };
  const Heading = headingLevel === 1 ? 'h1' : 'h2';

  return (
    <section className="panel" aria-labelledby={titleId}>
      <div className="panel-heading">
        <Heading id={titleId}>{t('webhooks.title')}</Heading>
        <button
          type="button"
          className="button primary"
          onClick={() => {
            setOpen({ dialog: 'form' });
          }}
        >
          {t('webhooks.add')}
        </button>
      </div>
      <p className="muted">{t('webhooks.intro')}</p>
      <QueryView
        query={webhooks}
        loading={<PageLoader label={t('webhooks.loading')} />}
        failed={(texts, retry) => (
          <>
            <ServerErrors texts={texts} />
            <button type="button" className="button" onClick={retry}>
              {t('webhooks.try_again')}
            </button>
          </>
        )}
        isEmpty={(list) => list.length === 0}
        empty={<p className="empty-state">{t('webhooks.empty')}</p>}
      >
        {(list) => (
          <div className="table-scroll">
            <table className="data-table webhook-table">
              <caption className="visually-hidden">{t('webhooks.list')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('webhooks.state')}</th>
                  <th scope="col">{t('webhooks.url')}</th>
                  <th scope="col">{t('webhooks.events')}</th>
                  <th scope="col">{t('webhooks.actions')}</th>
                </tr>
              </thead>
              <tbody>
                {list.map((webhook) => (
                  <tr key={webhook.webhook_id}>
                    <td data-label={t('webhooks.state')}>
                      <span className={`badge badge-${webhook.state}`}>{t(`webhooks.${webhook.state}`)}</span>
                      {webhook.disabled_reason && (
                        <small className="muted block">
                          {t('webhooks.disabled_because', { reason: webhook.disabled_reason })}
                        </small>
                      )}
                    </td>
                    <td data-label={t('webhooks.url')} className="url-cell">
                      {webhook.url}
                      {webhook.previous_secret_until && (
                        <small className="muted block">
                          {t('webhooks.previous_until', {
                            until: formatDateTime(webhook.previous_secret_until, i18n.language),
                          })}
                        </small>
                      )}
                    </td>
                    <td data-label={t('webhooks.events')}>
                      {webhook.events.map((event) => t(`webhooks.event_names.${event}`)).join(', ')}
                    </td>
                    <td data-label={t('webhooks.actions')}>
                      <div className="row-actions">
                        <button
                          type="button"
                          className="button small"
                          aria-label={`${t('webhooks.edit')} ${webhook.url}`}
                          onClick={() => {
                            setOpen({ dialog: 'form', webhook });
                          }}
                        >
                          {t('webhooks.edit')}
                        </button>
                        <button
                          type="button"
                          className="button small"
                          aria-label={`${t('webhooks.deliveries')} ${webhook.url}`}
                          onClick={() => {
                            setOpen({ dialog: 'log', webhook });
                          }}
                        >
                          {t('webhooks.deliveries')}
                        </button>
                        <button
                          type="button"
                          className="button small"
                          aria-label={`${t('webhooks.rotate')} ${webhook.url}`}
                          onClick={() => {
                            setOpen({ dialog: 'rotate', webhook });
                          }}
                        >
                          {t('webhooks.rotate')}
                        </button>
                        <button
                          type="button"
                          className="button small danger"
                          aria-label={`${t('webhooks.delete')} ${webhook.url}`}
                          onClick={() => {
                            setOpen({ dialog: 'delete', webhook });
                          }}
                        >
                          {t('webhooks.delete')}
                        </button>
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </QueryView>
      <VerificationSnippet />

      {open.dialog === 'form' && (
        <WebhookFormDialog
          {...(open.webhook ? { webhook: open.webhook } : {})}
          personal={personal}
          onCreated={(secret) => {
            toast(t('webhooks.created'));
            setOpen({ dialog: 'secret', secret });
          }}
          onUpdated={() => {
            toast(t('webhooks.updated'));
            close();
          }}
          onClose={close}
        />
      )}
      {open.dialog === 'secret' && <SecretDialog secret={open.secret} onClose={close} />}
      {open.dialog === 'log' && <DeliveryLogDialog webhook={open.webhook} onClose={close} />}
      {open.dialog === 'delete' && (
        <ConfirmDialog
          title={t('webhooks.delete_title')}
          question={t('webhooks.delete_question')}
          confirm={t('webhooks.delete_confirm')}
          cancel={t('webhooks.cancel')}
          onConfirm={async () => {
            await deleteWebhook(open.webhook.webhook_id);
            toast(t('webhooks.deleted'));
            close();
          }}
          onClose={close}
        />
      )}
      {open.dialog === 'rotate' && (
        <ConfirmDialog
          title={t('webhooks.rotate_title')}
          question={t('webhooks.rotate_question')}
          confirm={t('webhooks.rotate_confirm')}
          cancel={t('webhooks.cancel')}
          onConfirm={async () => {
            const answer = await rotateSecret(open.webhook.webhook_id);
            toast(t('webhooks.rotated'));
            setOpen({ dialog: 'secret', secret: answer.data.secret });
          }}
          onClose={close}
        />
      )}
    </section>
  );
}

/** /webhook */
export default function WebhooksPage() {
  return <WebhooksPanel />;
}
