import type { Webhook, WebhookDelivery } from '@peeks/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
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
 * A webhook's delivery log, newest first: time, event, attempts, last
 * status, latency and the answer's first characters, with Replay for a
 * delivery that is no longer being attempted, and Send test event.
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
    <Dialog title={t('webhooks.log_title', { url: webhook.url })} onClose={onClose}>
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
            <div className="table-scroll">
              <table className="data-table delivery-log">
                <caption className="visually-hidden">{t('webhooks.deliveries')}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t('webhooks.time')}</th>
                    <th scope="col">{t('webhooks.event')}</th>
                    <th scope="col">{t('webhooks.delivery_state')}</th>
                    <th scope="col">{t('webhooks.attempts')}</th>
                    <th scope="col">{t('webhooks.last_status')}</th>
                    <th scope="col">{t('webhooks.latency')}</th>
                    <th scope="col">{t('webhooks.response')}</th>
                    <th scope="col">{t('webhooks.actions')}</th>
                  </tr>
                </thead>
                <tbody>
                  {page.deliveries.map((delivery) => {
                    const last = lastAttempt(delivery);
                    return (
                      <tr key={delivery.delivery_id} data-delivery={delivery.delivery_id}>
                        <td data-label={t('webhooks.time')}>{formatDateTime(delivery.created_at, i18n.language)}</td>
                        <td data-label={t('webhooks.event')}>
                          {t(`webhooks.event_names.${delivery.event}`)}
                          {isTest(delivery) && <span className="badge">{t('webhooks.test_mark')}</span>}
                        </td>
                        <td data-label={t('webhooks.delivery_state')}>{t(`webhooks.state_${delivery.state}`)}</td>
                        <td data-label={t('webhooks.attempts')}>{delivery.attempts.length}</td>
                        <td data-label={t('webhooks.last_status')}>
                          {last ? (last.status_code ?? last.error ?? t('webhooks.no_answer')) : '—'}
                        </td>
                        <td data-label={t('webhooks.latency')}>
                          {last ? t('webhooks.latency_ms', { ms: last.latency_ms }) : '—'}
                        </td>
                        <td data-label={t('webhooks.response')} className="response-excerpt">
                          {last?.response_body ? last.response_body.slice(0, RESPONSE_SHOWN) : '—'}
                        </td>
                        <td data-label={t('webhooks.actions')}>
                          <button
                            type="button"
                            className="button small"
                            disabled={action.busy || delivery.state === 'pending' || webhook.state === 'disabled'}
                            onClick={() => void replay(delivery)}
                          >
                            {t('webhooks.replay')}
                          </button>
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </div>
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
