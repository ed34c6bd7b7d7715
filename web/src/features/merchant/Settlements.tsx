import type { SettlementSummary } from '@peeks/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { Paginator } from '../../ui/Paginator.tsx';
import { PAGE, useSettlement, useSettlements } from './merchant-api.ts';
import { dateOf, LoadedView, MerchantPanel, TransactionTable } from './MerchantPanel.tsx';
import { MerchantTable } from './MerchantTable.tsx';

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
              <MerchantTable
                label={t('nav.settlements')}
                rows={data.settlements}
                keyOf={(settlement) => settlement.tx_id}
                isCurrent={(settlement) => settlement.batch_id === open}
                columns={[
                  { heading: t('merchant.columns.date'), cell: (settlement) => dateOf(settlement.entry_date) },
                  { heading: t('merchant.settlements.paid_out'), amountOf: (settlement) => settlement.amount },
                  { heading: t('merchant.dashboard.sales'), amountOf: (settlement) => settlement.sales },
                  { heading: t('merchant.dashboard.returns'), amountOf: (settlement) => settlement.returns },
                  {
                    heading: t('merchant.settlements.payments'),
                    cell: (settlement) => (
                      <button
                        type="button"
                        className="button small"
                        onClick={() => {
                          show(settlement);
                        }}
                      >
                        {t('merchant.settlements.show', { count: settlement.payments })}
                      </button>
                    ),
                  },
                ]}
              />
              <Paginator page={page} total={data.total} pageSize={PAGE} onPage={setPage} label={t('nav.settlements')} />
            </>
          )
        }
      </LoadedView>
      {open !== null && <Batch batchId={open} />}
    </MerchantPanel>
  );
}
