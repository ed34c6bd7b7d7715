import { COIN_PAGE_SIZE } from '@peeks/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatMoney } from '../../lib/money.ts';
import { Dialog } from '../../ui/Dialog.tsx';
import { PageLoader } from '../../ui/PageLoader.tsx';
import { Paginator } from '../../ui/Paginator.tsx';
import { QueryView } from '../../ui/QueryView.tsx';
import { useCoinPage } from './wallet-store.ts';
import { formatDate } from '../../lib/dates.ts';

/**
 * The Coin Breakdown dialog (spec §4 Wallet dashboard): the serials the
 * wallet holds and their values, 50 a page (§9), with the count of coins and
 * the coin balance they add up to.
 */
export function CoinBreakdownDialog({ coinBalance, onClose }: { coinBalance: number; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const [page, setPage] = useState(1);
  const coins = useCoinPage(page);

  const today = formatDate(new Date(), i18n.language);
  return (
    <Dialog
      title={t('wallet.coin_breakdown.title')}
      onClose={onClose}
      footer={
        <button type="button" className="button" onClick={onClose}>
          {t('dialog.close')}
        </button>
      }
    >
      <QueryView
        query={coins}
        loading={<PageLoader />}
        isEmpty={(answer) => answer.total === 0}
        empty={<p>{t('wallet.coin_breakdown.empty')}</p>}
      >
        {(answer) => (
          <>
            {coins.isPlaceholderData && <PageLoader />}
            <div aria-busy={coins.isPlaceholderData}>
              <p>{t('wallet.coin_breakdown.processed', { date: today, count: answer.total })}</p>
              <p>{t('wallet.coin_breakdown.total', { amount: formatMoney(coinBalance, 'CON') })}</p>
              <table className="table">
                <caption className="visually-hidden">{t('wallet.coin_breakdown.title')}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t('wallet.coin_breakdown.serial')}</th>
                    <th scope="col" className="amount">
                      {t('wallet.coin_breakdown.value')}
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {answer.coins.map((coin) => (
                    <tr key={coin.serial}>
                      <td className="serial">{coin.serial}</td>
                      <td className="amount">{formatMoney(coin.value, 'CON')}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
              <Paginator
                page={page}
                total={answer.total}
                pageSize={COIN_PAGE_SIZE}
                onPage={setPage}
                label={t('wallet.coin_breakdown.pages')}
              />
            </div>
          </>
        )}
      </QueryView>
    </Dialog>
  );
}
