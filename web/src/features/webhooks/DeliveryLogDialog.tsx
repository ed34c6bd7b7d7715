import type { Webhook, WebhookDelivery } from '@peeks/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Badge, StatusPill } from '../../ui/Badge.tsx';
import { Button } from '../../ui/Button.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { ServerErrors, useApiAction } from '../../ui/feedback.tsx';
import { PageLoader } from '../../ui/PageLoader.tsx';
import { QueryView } from '../../ui/QueryView.tsx';
import { toast } from '../../ui/toasts.tsx';
import { DELIVERIES_SHOWN, replayDelivery, sendTestEvent, useDeliveries } from './webhooks-api.ts';
import { formatDateTime } from '../../lib/dates.ts';

const RESPONSE_SHOWN = 120;

/** What the log shows of a delivery: its last attempt's status (or why there was none), latency and answer. */
function lastAttempt(delivery: WebhookDelivery) {
  return delivery.attempts.at(-1);
}
const isTest = (delivery: WebhookDelivery) =>
  typeof delivery.payload === 'object' &&
  delivery.payload !== null &&
  (delivery.payload as { data?: { test?: unknown } }).data?.test === true;

/**
 * A webhook's delivery log, newest first: each delivery a card with its
 * event, time, state and Replay (for one no longer being attempted) on top,
 * and its attempts, last status, latency and the answer's first characters
 * under them, so the log fits its dialog at any width; and Send test event.
 */
export function DeliveryLogDialog({ webhook, onClose }: { webhook: Webhook; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const [offset, setOffset] = useState(0);
  const deliveries = useDeliveries(webhook.webhook_id, offset);
  const action = useApiAction();

  const replay = (delivery: WebhookDelivery) =>
    action.run(async () => {
      await replayDelivery(delivery.delivery_id);
      toast(t('webhooks.replayed'));
    });
  const sendTest = () =>
    action.run(async () => {
      await sendTestEvent(webhook.webhook_id);
      toast(t('webhooks.test_sent'));
      setOffset(0);
    });

  return (
    <Dialog title={t('webhooks.log_title', { url: webhook.url })} onClose={onClose} size="wide">
      <div className="dialog-toolbar">
        <button
          type="button"
          className="button primary"
          disabled={action.busy || webhook.state === 'disabled'}
          onClick={() => void sendTest()}
        >
          {t('webhooks.send_test')}
        </button>
        <button type="button" className="button" onClick={() => void deliveries.refetch()}>
          {t('webhooks.try_again')}
        </button>
      </div>
      <ServerErrors texts={action.errors} />
      <QueryView
        query={deliveries}
        loading={<PageLoader label={t('webhooks.log_loading')} />}
        failed={(texts) => <ServerErrors texts={texts} />}
        isEmpty={(page) => page.deliveries.length === 0}
        empty={<p className="empty-state">{t('webhooks.log_empty')}</p>}
      >
        {(page) => (
          <>
            <ul className="delivery-list" aria-label={t('webhooks.deliveries')}>
              {page.deliveries.map((delivery) => {
                const last = lastAttempt(delivery);
                return (
                  <li key={delivery.delivery_id} className="delivery" data-delivery={delivery.delivery_id}>
                    <div className="delivery-head">
                      <div className="delivery-what">
                        <strong>
                          {t(`webhooks.event_names.${delivery.event}`)}{' '}
                          {isTest(delivery) && <Badge tone="info">{t('webhooks.test_mark')}</Badge>}
                        </strong>
                        <span className="muted">{formatDateTime(delivery.created_at, i18n.language)}</span>
                      </div>
                      <StatusPill status={delivery.state}>{t(`webhooks.state_${delivery.state}`)}</StatusPill>
                      <Button
                        disabled={action.busy || delivery.state === 'pending' || webhook.state === 'disabled'}
                        onClick={() => void replay(delivery)}
                      >
                        {t('webhooks.replay')}
                      </Button>
                    </div>
                    <dl className="delivery-facts">
                      <div>
                        <dt>{t('webhooks.attempts')}</dt>
                        <dd>{delivery.attempts.length}</dd>
                      </div>
                      <div>
                        <dt>{t('webhooks.last_status')}</dt>
                        <dd>{last ? (last.status_code ?? last.error ?? t('webhooks.no_answer')) : '—'}</dd>
                      </div>
                      <div>
                        <dt>{t('webhooks.latency')}</dt>
                        <dd>{last ? t('webhooks.latency_ms', { ms: last.latency_ms }) : '—'}</dd>
                      </div>
                      <div className="delivery-response">
                        <dt>{t('webhooks.response')}</dt>
                        <dd>
                          {last?.response_body ? <code>{last.response_body.slice(0, RESPONSE_SHOWN)}</code> : '—'}
                        </dd>
                      </div>
                    </dl>
                  </li>
                );
              })}
            </ul>
            <nav className="pager" aria-label={t('webhooks.deliveries')}>
              <button
                type="button"
                className="button small"
                disabled={offset === 0}
                onClick={() => {
                  setOffset(Math.max(0, offset - DELIVERIES_SHOWN));
                }}
              >
                {t('webhooks.previous')}
              </button>
              <span>
                {t('webhooks.page_of', {
                  from: offset + 1,
                  to: offset + page.deliveries.length,
                  total: page.total,
                })}
              </span>
              <button
                type="button"
                className="button small"
                disabled={offset + DELIVERIES_SHOWN >= page.total}
                onClick={() => {
                  setOffset(offset + DELIVERIES_SHOWN);
                }}
              >
                {t('webhooks.next')}
              </button>
            </nav>
          </>
        )}
      </QueryView>
    </Dialog>
  );
}
