import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Paginator } from '../../ui/Paginator.tsx';
import { PAGE, useReturns } from './merchant-api.ts';
import { LoadedView, MerchantPanel, TransactionTable } from './MerchantPanel.tsx';

/** The sidebar's Returns: every return of the merchant's, with its reason; a sale is returned from Transfers. */
export default function Returns() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const returns = useReturns((page - 1) * PAGE);
  return (
    <MerchantPanel title={t('nav.returns')}>
      <p className="hint">{t('merchant.returns.how')}</p>
      <LoadedView loaded={returns}>
        {(data) => (
          <>
            <TransactionTable caption={t('nav.returns')} transactions={data.transactions} />
            <Paginator page={page} total={data.total} pageSize={PAGE} onPage={setPage} label={t('nav.returns')} />
          </>
        )}
      </LoadedView>
    </MerchantPanel>
  );
}
