import type { SettlementSummary } from '@peeks/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { formatMoney } from '../../lib/money.ts';
import { Paginator } from '../../ui/Paginator.tsx';
import { PAGE, useSettlement, useSettlements } from './merchant-api.ts';
import { dateOf, LoadedView, MerchantPanel, TransactionTable } from './MerchantPanel.tsx';

function Batch({ batchId }: { batchId: string }) {
  const { t } = useTranslation();
  const batch = useSettlement(batchId);
  return (
    <LoadedView loaded={batch}>
      {(data) => (
        <section aria-labelledby="batch-title" className="batch">
          <h2 id="batch-title">{t('merchant.settlements.batch', { date: dateOf(data.settlement.entry_date) })}</h2>
          <TransactionTable caption={t('merchant.settlements.payments')} transactions={data.payments} />
        </section>
      )}
    </LoadedView>
  );
}

/** The sidebar's Settlements: each daily batch as paid out, its payments' totals, and a batch's payments on demand. */
export default function Settlements() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const [search, setSearch] = useSearchParams();
  const open = search.get('batch');
  const settlements = useSettlements((page - 1) * PAGE);
  const show = (settlement: SettlementSummary) => {
    setSearch({ batch: settlement.batch_id });
  };
  return (
    <MerchantPanel title={t('nav.settlements')}>
      <LoadedView loaded={settlements}>
        {(data) =>
          data.settlements.length === 0 ? (
            <p className="empty">{t('merchant.settlements.none')}</p>
          ) : (
            <>
              <div className="table-scroll" tabIndex={0} role="region" aria-label={t('nav.settlements')}>
                <table className="table merchant-table">
                  <thead>
                    <tr>
                      <th scope="col">{t('merchant.columns.date')}</th>
                      <th scope="col" className="amount">
                        {t('merchant.settlements.paid_out')}
                      </th>
                      <th scope="col" className="amount">
                        {t('merchant.dashboard.sales')}
                      </th>
                      <th scope="col" className="amount">
                        {t('merchant.dashboard.returns')}
                      </th>
                      <th scope="col">{t('merchant.settlements.payments')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.settlements.map((settlement) => (
                      <tr key={settlement.tx_id} aria-current={settlement.batch_id === open ? 'true' : undefined}>
                        <td>{dateOf(settlement.entry_date)}</td>
                        <td className="amount">{formatMoney(settlement.amount, settlement.currency)}</td>
                        <td className="amount">{formatMoney(settlement.sales, settlement.currency)}</td>
                        <td className="amount">{formatMoney(settlement.returns, settlement.currency)}</td>
                        <td>
                          <button
                            type="button"
                            className="button small"
                            onClick={() => {
                              show(settlement);
                            }}
                          >
                            {t('merchant.settlements.show', { count: settlement.payments })}
                          </button>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              <Paginator page={page} total={data.total} pageSize={PAGE} onPage={setPage} label={t('nav.settlements')} />
            </>
          )
        }
      </LoadedView>
      {open !== null && <Batch batchId={open} />}
    </MerchantPanel>
  );
}
