import type { z } from 'zod';
import type { coinTrailStep } from '@peeks/contracts';
import { useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { formatMoney } from '../../lib/money.ts';
import { Button } from '../../ui/Button.tsx';
import { Card } from '../../ui/Card.tsx';
import { Input } from '../../ui/fields.tsx';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { Loading } from './Loading.tsx';
import { operationsApi } from './operations-api.ts';
import { useLoad } from './use-load.ts';
import { formatDateTime } from '../../lib/dates.ts';

type Step = z.infer<typeof coinTrailStep>;

/** A link to a serial's own trail: every serial the console shows leads here. */
export function SerialLink({ serial }: { serial: string }) {
  return <Link to={`/operations/coins?serial=${encodeURIComponent(serial)}`}>{serial}</Link>;
}

/** The trail as a picture: one node per step, oldest (the mint) first, each with its event. */
function Lineage({ serial, steps }: { serial: string; steps: readonly Step[] }) {
  const { t } = useTranslation();
  return (
    <Card title={t('operations.coins.lineage', { serial })}>
      <ol className="coin-lineage">
        {steps.map((step) => (
          <li
            key={`${step.event_position}-${step.serial}-${step.action}`}
            className={`coin-step coin-${step.action.toLowerCase()}`}
          >
            <strong>
              {t('operations.coins.step', {
                action: t(`operations.coins.actions.${step.action}`, { defaultValue: step.action }),
                value: formatMoney(step.value, 'CON'),
                type: step.event_type,
                position: step.event_position,
                time: formatDateTime(step.event_time),
              })}
            </strong>
            <span>
              <SerialLink serial={step.serial} />
              {step.from_account && ` · ${t('operations.coins.from', { account: step.from_account })}`}
              {step.to_account && ` · ${t('operations.coins.to', { account: step.to_account })}`}
            </span>
            {step.parent_serial && (
              <span>
                {t('operations.coins.parent')} <SerialLink serial={step.parent_serial} />
              </span>
            )}
            <span className="help">{t('operations.coins.transaction', { txId: step.tx_id })}</span>
          </li>
        ))}
      </ol>
    </Card>
  );
}

function Trail({ serial }: { serial: string }) {
  const [trail, reload] = useLoad(() => operationsApi.coinTrail(serial));
  return (
    <Loading loaded={trail} retry={reload}>
      {(value) => <Lineage serial={value.serial} steps={value.trail} />}
    </Loading>
  );
}

export default function CoinTrailPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const serial = params.get('serial') ?? '';
  const [typed, setTyped] = useState(serial);
  const search = (event: SyntheticEvent) => {
    event.preventDefault();
    setParams({ serial: typed.trim() });
  };
  return (
    <>
      <PageHeader title={t('operations.nav.coins')} description={t('operations.coins.description')} />
      <form className="filters" role="search" onSubmit={search}>
        <Input
          label={t('operations.coins.serial')}
          value={typed}
          onChange={(event) => {
            setTyped(event.target.value);
          }}
        />
        <Button type="submit" variant="primary">
          {t('operations.coins.search')}
        </Button>
      </form>
      {serial !== '' && <Trail key={serial} serial={serial} />}
    </>
  );
}
