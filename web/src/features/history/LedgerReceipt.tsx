import type { TransactionView } from '@peeks/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../lib/api.ts';
import { Button } from '../../ui/Button.tsx';
import { ledgerReceipt, type ReceiptResult } from './ledger-receipt.ts';

type State =
  { kind: 'idle' } | { kind: 'checking' } | { kind: 'done'; result: ReceiptResult } | { kind: 'failed'; text: string };

/**
 * A transaction's receipt from the ledger log, checked here in the browser
 * against the log's signed checkpoint, and offered as JSON for
 * `npx peeks-verify receipt.json --key <vkey>`.
 */
export function LedgerReceipt({ transaction }: { transaction: TransactionView }) {
  const { t, i18n } = useTranslation();
  const [state, setState] = useState<State>({ kind: 'idle' });
  const check = () => {
    setState({ kind: 'checking' });
    ledgerReceipt(transaction).then(
      (result) => {
        setState({ kind: 'done', result });
      },
      (error: unknown) => {
        setState({
          kind: 'failed',
          text: error instanceof ApiError ? error.texts.join(' ') : t('history.receipt.unavailable'),
        });
      },
    );
  };
  const receiptUrl = (result: ReceiptResult) =>
    `data:application/json;charset=utf-8,${encodeURIComponent(JSON.stringify(result.receipt, null, 2))}`;
  return (
    <section className="ledger-receipt" aria-live="polite">
      <h3>{t('history.receipt.title')}</h3>
      {state.kind === 'done' ? (
        <>
          <p role={state.result.failure ? 'alert' : 'status'}>
            {state.result.failure
              ? t('history.receipt.not_proven', { reason: state.result.failure })
              : t('history.receipt.proven', {
                  size: new Intl.NumberFormat(i18n.language).format(state.result.receipt.tree_size),
                })}
          </p>
          <a href={receiptUrl(state.result)} download={`receipt-${transaction.tx_id}.json`}>
            {t('history.receipt.download')}
          </a>
        </>
      ) : (
        <>
          {state.kind === 'failed' && <p role="alert">{state.text}</p>}
          <Button variant="secondary" onClick={check} disabled={state.kind === 'checking'}>
            {state.kind === 'checking' ? t('history.receipt.checking') : t('history.receipt.check')}
          </Button>
        </>
      )}
    </section>
  );
}
