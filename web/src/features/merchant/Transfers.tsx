import type { MerchantTransaction } from '@peeks/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Paginator } from '../../ui/Paginator.tsx';
import { PAGE, useTransfers } from './merchant-api.ts';
import { LoadedView, MerchantPanel, TransactionTable, useMerchantPermission } from './MerchantPanel.tsx';
import { ReturnDialog } from './ReturnDialog.tsx';

/**
 * The sidebar's Transfers: payments in and out of the merchant's wallets,
 * newest first, a refunded sale marked; with RETURN_SALES, Return on a sale
 * that has something left to give back.
 */
export default function Transfers() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const [returning, setReturning] = useState<MerchantTransaction | null>(null);
  const mayReturn = useMerchantPermission('RETURN_SALES');
  const transfers = useTransfers((page - 1) * PAGE);

  const action = (transaction: MerchantTransaction) =>
    mayReturn && transaction.type === 'sale' && transaction.returned_amount < transaction.amount ? (
      <button
        type="button"
        className="button small"
        onClick={() => {
          setReturning(transaction);
        }}
      >
        {t('merchant.return.open')}
      </button>
    ) : null;

  return (
    <MerchantPanel title={t('nav.transfers')}>
      <LoadedView loaded={transfers}>
        {(data) => (
          <>
            <TransactionTable caption={t('nav.transfers')} transactions={data.transactions} action={action} />
            <Paginator page={page} total={data.total} pageSize={PAGE} onPage={setPage} label={t('nav.transfers')} />
          </>
        )}
      </LoadedView>
      {returning && (
        <ReturnDialog
          sale={returning}
          onClose={() => {
            setReturning(null);
          }}
          onReturned={() => {
            // returnSale invalidated the merchant's reads: the list reads itself again.
            setReturning(null);
          }}
        />
      )}
    </MerchantPanel>
  );
}
