import { currencyCode, type PersonView } from '@peeks/contracts';
import { useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { Badge, StatusPill } from '../../ui/Badge.tsx';
import { Button } from '../../ui/Button.tsx';
import { Card } from '../../ui/Card.tsx';
import { DataTable } from '../../ui/DataTable.tsx';
import { EmptyState } from '../../ui/EmptyState.tsx';
import { Input } from '../../ui/Field.tsx';
import { Money } from '../../ui/Money.tsx';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { Loading } from './Loading.tsx';
import { operationsApi } from './operations-api.ts';
import { useLoad } from './use-load.ts';

function Amount({ minor, currency }: { minor: number; currency: string }) {
  const known = currencyCode.safeParse(currency);
  return known.success ? <Money minor={minor} currency={known.data} /> : <>{minor}</>;
}

function Person({ view }: { view: Omit<PersonView, 'response'> }) {
  const { t } = useTranslation();
  return (
    <>
      <Card title={view.person.username}>
        <p>
          {view.person.email} · {view.person.user_type} · {view.person.role}{' '}
          {view.person.is_banned && <Badge tone="danger">banned</Badge>}
        </p>
      </Card>
      <Card title={t('operations.people.wallets')}>
        <div className="tiles">
          {view.wallets.map((wallet) => (
            <div key={wallet.wallet_id} className="tile">
              <span className="tile-label">{wallet.currency}</span>
              <span className="tile-amount">
                <Amount minor={wallet.total} currency={wallet.currency} />
              </span>
              <span className="help">
                available <Amount minor={wallet.available} currency={wallet.currency} /> · withdrawable{' '}
                <Amount minor={wallet.withdrawable} currency={wallet.currency} />
              </span>
            </div>
          ))}
        </div>
      </Card>
      <Card title={t('operations.people.holds')}>
        {view.holds.length === 0 ? (
          <EmptyState title={t('operations.people.no_holds')} />
        ) : (
          <ul>
            {view.holds.map((hold) => (
              <li key={hold.tx_id}>
                <Amount minor={hold.amount} currency={hold.currency} /> ·{' '}
                {t('operations.people.release_at', { time: new Date(hold.release_at).toLocaleString() })}
              </li>
            ))}
          </ul>
        )}
      </Card>
      <Card title={t('operations.people.transactions')}>
        <DataTable
          caption={t('operations.people.transactions')}
          rows={view.transactions}
          rowKey={(row) => row.tx_id}
          empty={t('operations.people.no_transactions')}
          columns={[
            { header: 'Date', cell: ({ row }) => new Date(row.original.entry_date).toLocaleString() },
            { header: 'Type', cell: ({ row }) => row.original.type },
            { header: 'State', cell: ({ row }) => <StatusPill status={row.original.state} /> },
            {
              header: 'Amount',
              cell: ({ row }) => (
                <>
                  {row.original.debit_credit === 'D' ? '−' : '+'}
                  <Amount minor={row.original.amount} currency={row.original.currency} />
                </>
              ),
            },
          ]}
        />
      </Card>
      <Card title={t('operations.people.sessions')}>
        <ul>
          {view.sessions.map((item) => (
            <li key={item.session_id}>
              {item.session_id} · last seen {new Date(item.last_seen_at).toLocaleString()}
            </li>
          ))}
        </ul>
      </Card>
    </>
  );
}

function PersonLoader({ userId }: { userId: number }) {
  const [view, reload] = useLoad(() => operationsApi.person(userId));
  return (
    <Loading loaded={view} retry={reload}>
      {(value) => <Person view={value} />}
    </Loading>
  );
}

function Results({ q }: { q: string }) {
  const { t } = useTranslation();
  const [people, reload] = useLoad(() => operationsApi.people(q));
  return (
    <Loading loaded={people} retry={reload}>
      {(value) =>
        value.people.length === 0 ? (
          <EmptyState title={t('operations.people.empty')} />
        ) : (
          <ul className="people-list">
            {value.people.map((person) => (
              <li key={person.user_id}>
                <Link to={`/operations/people?user=${person.user_id}`}>{person.username}</Link> · {person.email}
              </li>
            ))}
          </ul>
        )
      }
    </Loading>
  );
}

function Audit() {
  const { t } = useTranslation();
  const [audit, reload] = useLoad(operationsApi.audit);
  return (
    <Card title={t('operations.people.audit')}>
      <Loading loaded={audit} retry={reload}>
        {({ actions }) => (
          <ul>
            {actions.map((action) => (
              <li key={action.position}>
                {new Date(action.created_at).toLocaleString()} · {action.operator_username} · {action.type}
                {action.reason ? ` · ${action.reason}` : ''}
              </li>
            ))}
          </ul>
        )}
      </Loading>
    </Card>
  );
}

export default function PeoplePage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const userId = Number(params.get('user') ?? '');
  const [typed, setTyped] = useState(q);
  const find = (event: SyntheticEvent) => {
    event.preventDefault();
    setParams({ q: typed.trim() });
  };
  return (
    <>
      <PageHeader title={t('operations.nav.people')} description={t('operations.people.description')} />
      <form className="filters" onSubmit={find}>
        <Input
          label={t('operations.people.search')}
          value={typed}
          onChange={(event) => {
            setTyped(event.target.value);
          }}
        />
        <Button type="submit" variant="primary">
          {t('operations.people.find')}
        </Button>
      </form>
      {Number.isSafeInteger(userId) && userId > 0 ? (
        <PersonLoader key={userId} userId={userId} />
      ) : q !== '' ? (
        <Results key={q} q={q} />
      ) : (
        <Audit />
      )}
    </>
  );
}
