import { COIN_PAGE_SIZE, coinListResponse } from '@peeks/contracts';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { callApi } from '../../lib/api.ts';
import { formatMoney } from '../../lib/money.ts';
import { Dialog } from '../../ui/Dialog.tsx';
import { PageLoader } from '../../ui/PageLoader.tsx';
import { Paginator } from '../../ui/Paginator.tsx';
import { formatDate } from '../../lib/dates.ts';

interface CoinPage {
  coins: { serial: string; value: number }[];
  total: number;
}

/**
 * The Coin Breakdown dialog (spec §4 Wallet dashboard): the serials the
 * wallet holds and their values, 50 a page (§9), with the count of coins and
 * the coin balance they add up to.
 */
export function CoinBreakdownDialog({ coinBalance, onClose }: { coinBalance: number; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const [page, setPage] = useState(1);
  // The page on screen stays while the next one loads, so the paginator keeps focus.
  const [coins, setCoins] = useState<CoinPage | null>(null);
  const [settled, setSettled] = useState<{ page: number; failure: string | null } | null>(null);
  const loading = settled?.page !== page;
  const failure = loading ? null : settled.failure;

  useEffect(() => {
    const abort = new AbortController();
    callApi('/wallet/list-coins', coinListResponse, {
      query: { offset: (page - 1) * COIN_PAGE_SIZE, limit: COIN_PAGE_SIZE },
      signal: abort.signal,
    })
      .then((answer) => {
        setCoins(answer);
        setSettled({ page, failure: null });
      })
      .catch((error: unknown) => {
        if (!abort.signal.aborted)
          setSettled({ page, failure: error instanceof Error ? error.message : String(error) });
      });
    return () => {
      abort.abort();
    };
  }, [page]);

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
      {loading && <PageLoader />}
      {failure !== null && (
        <p role="alert" className="field-error">
          {failure}
        </p>
      )}
      {coins?.total === 0 && <p>{t('wallet.coin_breakdown.empty')}</p>}
      {coins !== null && coins.total > 0 && (
        <div aria-busy={loading}>
          <p>{t('wallet.coin_breakdown.processed', { date: today, count: coins.total })}</p>
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
              {coins.coins.map((coin) => (
                <tr key={coin.serial}>
                  <td className="serial">{coin.serial}</td>
                  <td className="amount">{formatMoney(coin.value, 'CON')}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <Paginator
            page={page}
            total={coins.total}
            pageSize={COIN_PAGE_SIZE}
            onPage={setPage}
            label={t('wallet.coin_breakdown.pages')}
          />
        </div>
      )}
    </Dialog>
  );
}
