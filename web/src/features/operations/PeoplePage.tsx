import { currencyCode, type PersonView } from '@peeks/contracts';
import { useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { Badge, StatusPill } from '../../ui/Badge.tsx';
import { Button } from '../../ui/Button.tsx';
import { Card } from '../../ui/Card.tsx';
import { DataTable } from '../../ui/DataTable.tsx';
import { EmptyState } from '../../ui/EmptyState.tsx';
import { Input } from '../../ui/fields.tsx';
import { Money } from '../../ui/Money.tsx';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { toast } from '../../ui/toasts.tsx';
import { FieldsDialog } from './FieldsDialog.tsx';
import { useDataLabel } from './labels.ts';
import { Loading } from './Loading.tsx';
import { operationsApi } from './operations-api.ts';
import { PendingBans } from './PendingBans.tsx';
import { useLoad } from './use-load.ts';
import { formatDateTime, formatRelative } from '../../lib/dates.ts';

function Amount({ minor, currency }: { minor: number; currency: string }) {
  const known = currencyCode.safeParse(currency);
  return known.success ? <Money minor={minor} currency={known.data} /> : <>{minor}</>;
}

type View = Omit<PersonView, 'response'>;

/** A step on the person's account with a reason: ban, unban or revoking one session. */
function ReasonDialog({
  title,
  submitLabel,
  help,
  act,
  onDone,
  onClose,
}: {
  title: string;
  submitLabel: string;
  help?: string;
  act: (reason: string) => Promise<View>;
  onDone: (view: View) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <FieldsDialog
      title={title}
      submitLabel={submitLabel}
      danger
      intro={help && <p>{help}</p>}
      fields={[{ name: 'reason', label: t('operations.people.reason') }]}
      toRequest={({ reason }) => reason}
      act={act}
      onDone={onDone}
      onClose={onClose}
    />
  );
}

function Person({ initial }: { initial: View }) {
  const { t } = useTranslation();
  const label = useDataLabel();
  const [view, setView] = useState(initial);
  const [open, setOpen] = useState<{ kind: 'ban' | 'unban' } | { kind: 'revoke'; session: string } | null>(null);
  const { username } = view.person;
  const done = (message: string) => (next: View) => {
    setView(next);
    setOpen(null);
    toast(message);
  };
  const close = () => {
    setOpen(null);
  };
  return (
    <>
      <Card title={username}>
        <p>
          {view.person.email} · {view.person.user_type} · {view.person.role}{' '}
          {view.person.is_banned && <Badge tone="danger">{t('operations.people.banned')}</Badge>}
        </p>
        <div className="buttons">
          <Button
            variant={view.person.is_banned ? 'secondary' : 'danger'}
            onClick={() => {
              setOpen({ kind: view.person.is_banned ? 'unban' : 'ban' });
            }}
          >
            {t(view.person.is_banned ? 'operations.people.unban' : 'operations.people.ban')}
          </Button>
        </div>
      </Card>
      {open?.kind === 'ban' && (
        <ReasonDialog
          title={t('operations.people.ban_title', { username })}
          submitLabel={t('operations.people.ban')}
          help={t(
            view.person.role === 'finance' ? 'operations.people.ban_operator_help' : 'operations.people.ban_help',
          )}
          act={async (reason) => {
            const answer = await operationsApi.banUser({ user_id: view.person.user_id, reason });
            // A finance operator's ban waits for a second operator: nothing about them has changed yet.
            if ('ban' in answer) {
              toast(t('operations.people.ban_requested', { username }));
              return view;
            }
            toast(t('operations.people.banned_toast', { username }));
            return answer;
          }}
          onDone={(next) => {
            setView(next);
            close();
          }}
          onClose={close}
        />
      )}
      {open?.kind === 'unban' && (
        <ReasonDialog
          title={t('operations.people.unban_title', { username })}
          submitLabel={t('operations.people.unban')}
          act={(reason) => operationsApi.unbanUser({ user_id: view.person.user_id, reason })}
          onDone={done(t('operations.people.unbanned_toast', { username }))}
          onClose={close}
        />
      )}
      {open?.kind === 'revoke' && (
        <ReasonDialog
          title={t('operations.people.revoke_title', { session: open.session })}
          submitLabel={t('operations.people.revoke')}
          act={(reason) =>
            operationsApi.revokeSession({ user_id: view.person.user_id, session_id: open.session, reason })
          }
          onDone={done(t('operations.people.revoked_toast'))}
          onClose={close}
        />
      )}
      <Card title={t('operations.people.wallets')}>
        <div className="tiles">
          {view.wallets.map((wallet) => (
            <div key={wallet.wallet_id} className="tile">
              <span className="tile-label">{wallet.currency}</span>
              <span className="tile-amount">
                <Amount minor={wallet.total} currency={wallet.currency} />
              </span>
              <span className="help">
                {t('operations.people.available')} <Amount minor={wallet.available} currency={wallet.currency} /> ·{' '}
                {t('operations.people.withdrawable')} <Amount minor={wallet.withdrawable} currency={wallet.currency} />
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
                {t('operations.people.release_at', { time: formatDateTime(hold.release_at) })}
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
            {
              header: t('operations.people.columns.date'),
              cell: ({ row }) => formatDateTime(row.original.entry_date),
            },
            { header: t('operations.people.columns.type'), cell: ({ row }) => label('types', row.original.type) },
            {
              header: t('operations.people.columns.state'),
              cell: ({ row }) => (
                <StatusPill status={row.original.state}>{label('states', row.original.state)}</StatusPill>
              ),
            },
            {
              header: t('operations.people.columns.amount'),
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
        {view.sessions.length === 0 ? (
          <EmptyState title={t('operations.people.no_sessions')} />
        ) : (
          <ul className="session-list">
            {view.sessions.map((item) => (
              <li key={item.session_id}>
                <span>
                  <code>{item.session_id}</code> ·{' '}
                  {t('operations.people.last_seen', { time: formatRelative(item.last_seen_at) })}
                </span>
                <Button
                  variant="ghost"
                  aria-label={`${t('operations.people.revoke')} ${item.session_id}`}
                  onClick={() => {
                    setOpen({ kind: 'revoke', session: item.session_id });
                  }}
                >
                  {t('operations.people.revoke')}
                </Button>
              </li>
            ))}
          </ul>
        )}
      </Card>
    </>
  );
}

function PersonLoader({ userId }: { userId: number }) {
  const [view, reload] = useLoad(() => operationsApi.person(userId));
  return (
    <Loading loaded={view} retry={reload}>
      {(value) => <Person initial={value} />}
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
                {formatDateTime(action.created_at)} · {action.operator_username} · {action.type}
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
      <form className="filters" role="search" onSubmit={find}>
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
        <>
          <PendingBans />
          <Audit />
        </>
      )}
    </>
  );
}
