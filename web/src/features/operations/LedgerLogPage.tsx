import { consistencyProofResponse } from '@peeks/contracts';
import { useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { callApi } from '../../lib/api.ts';
import { checkConsistency, openCheckpoint } from '../../lib/ledger-log.ts';
import { Badge } from '../../ui/Badge.tsx';
import { Button } from '../../ui/Button.tsx';
import { Card } from '../../ui/Card.tsx';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { Loading } from './Loading.tsx';
import { operationsApi } from './operations-api.ts';
import { useLoad } from './use-load.ts';
import { formatDateTime } from '../../lib/dates.ts';

/**
 * Whether today's log extends a checkpoint an auditor kept: both signed by
 * the log key, and a consistency proof between them checked here.
 */
async function proveConsistency(kept: string, newest: string, vkey: string) {
  const first = await openCheckpoint(kept, vkey);
  const second = await openCheckpoint(newest, vkey);
  const proof =
    first.treeSize > 0 && first.treeSize < second.treeSize
      ? (
          await callApi('/ledger/proof/consistency', consistencyProofResponse, {
            query: { from: first.treeSize, to: second.treeSize },
          })
        ).proof
      : [];
  return { first, second, failure: await checkConsistency(first, second, proof) };
}

/** The ledger log as the console shows it: size, sequencer lag, checkpoints, witnesses, and a consistency check. */
export default function LedgerLogPage() {
  const { t, i18n } = useTranslation();
  const number = (value: number) => new Intl.NumberFormat(i18n.language).format(value);
  const [status, reload] = useLoad(() => operationsApi.ledgerLog());
  const [kept, setKept] = useState('');
  const [verdict, setVerdict] = useState<{ ok: boolean; text: string } | null>(null);
  return (
    <>
      <PageHeader title={t('operations.nav.ledger_log')} description={t('operations.ledger_log.description')} />
      <Loading loaded={status} retry={reload}>
        {(log) => {
          const newest = log.checkpoints[0];
          const prove = (event: SyntheticEvent) => {
            event.preventDefault();
            if (!newest) {
              setVerdict({ ok: false, text: t('operations.ledger_log.no_checkpoint') });
              return;
            }
            proveConsistency(kept.endsWith('\n') ? kept : `${kept}\n`, newest.checkpoint, log.vkey).then(
              ({ first, second, failure }) => {
                setVerdict(
                  failure
                    ? { ok: false, text: t('operations.ledger_log.inconsistent', { reason: failure }) }
                    : {
                        ok: true,
                        text: t('operations.ledger_log.consistent', {
                          today: number(second.treeSize),
                          kept: number(first.treeSize),
                        }),
                      },
                );
              },
              (error: unknown) => {
                setVerdict({
                  ok: false,
                  text: t('operations.ledger_log.inconsistent', {
                    reason: error instanceof Error ? error.message : String(error),
                  }),
                });
              },
            );
          };
          return (
            <>
              <Card>
                <dl className="summary">
                  <div>
                    <dt>{t('operations.ledger_log.tree_size')}</dt>
                    <dd>{number(log.tree_size)}</dd>
                  </div>
                  <div>
                    <dt>{t('operations.ledger_log.lag')}</dt>
                    <dd>
                      {t('operations.ledger_log.lag_value', {
                        events: number(log.unsequenced_events),
                        seconds: log.lag_seconds.toFixed(1),
                      })}
                    </dd>
                  </div>
                  <div>
                    <dt>{t('operations.ledger_log.key')}</dt>
                    <dd>
                      <code>{log.vkey}</code>
                    </dd>
                  </div>
                </dl>
              </Card>
              <Card>
                <table className="table">
                  <caption>{t('operations.ledger_log.checkpoints')}</caption>
                  <thead>
                    <tr>
                      <th scope="col">{t('operations.ledger_log.tree_size')}</th>
                      <th scope="col">{t('operations.ledger_log.signed_at')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {log.checkpoints.map((checkpoint) => (
                      <tr key={checkpoint.tree_size}>
                        <td>{number(checkpoint.tree_size)}</td>
                        <td>{formatDateTime(checkpoint.created_at, i18n.language)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
                <h2>{t('operations.ledger_log.witnesses')}</h2>
                {log.witnesses.length === 0 ? (
                  <p>{t('operations.ledger_log.no_witnesses')}</p>
                ) : (
                  <ul>
                    {log.witnesses.map((witness) => (
                      <li key={witness.witness}>
                        {t(`operations.ledger_log.witness_${witness.witness}`)}: {number(witness.tree_size)}{' '}
                        <Badge tone={witness.delivered ? 'success' : 'danger'}>
                          {witness.delivered ? t('operations.ledger_log.delivered') : (witness.error ?? '')}
                        </Badge>
                      </li>
                    ))}
                  </ul>
                )}
              </Card>
              <Card>
                <form onSubmit={prove}>
                  <label>
                    {t('operations.ledger_log.paste')}
                    <textarea
                      rows={6}
                      value={kept}
                      onChange={(event) => {
                        setKept(event.target.value);
                      }}
                    />
                  </label>
                  <Button type="submit" variant="primary">
                    {t('operations.ledger_log.prove')}
                  </Button>
                </form>
                {verdict && <p role={verdict.ok ? 'status' : 'alert'}>{verdict.text}</p>}
              </Card>
            </>
          );
        }}
      </Loading>
    </>
  );
}
