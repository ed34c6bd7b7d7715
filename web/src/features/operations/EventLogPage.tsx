import type { z } from 'zod';
import type { loggedEvent } from '@peeks/contracts';
import { Fragment, useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Badge } from '../../ui/Badge.tsx';
import { Button } from '../../ui/Button.tsx';
import { Card } from '../../ui/Card.tsx';
import { EmptyState } from '../../ui/EmptyState.tsx';
import { Input } from '../../ui/fields.tsx';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { Loading } from './Loading.tsx';
import { operationsApi } from './operations-api.ts';
import { useLoad } from './use-load.ts';
import { formatDateTime } from '../../lib/dates.ts';

type LoggedEvent = z.infer<typeof loggedEvent>;

const toIso = (local: string) => (local === '' ? undefined : new Date(local).toISOString());

/** Where positions jump between two rows of an unfiltered page (newest first): none appended there, which is no loss. */
function Gap({ newer, older }: { newer: number; older: number }) {
  const { t } = useTranslation();
  if (newer - older <= 1) return null;
  const from = older + 1;
  const to = newer - 1;
  return (
    <li className="event-gap">
      {from === to ? t('operations.events.gap_single', { from }) : t('operations.events.gap', { from, to })}
    </li>
  );
}

function EventRow({ event }: { event: LoggedEvent }) {
  const { t } = useTranslation();
  return (
    <li className="event-row">
      <details>
        <summary>
          <span className="event-position">#{event.position}</span>{' '}
          <time dateTime={event.created_at}>{formatDateTime(event.created_at)}</time> <strong>{event.type}</strong>{' '}
          <span className="event-stream">{event.stream_id}</span>{' '}
          <Badge tone={event.link_verifies ? 'success' : 'danger'}>
            {event.link_verifies ? t('operations.events.verifies') : t('operations.events.broken')}
          </Badge>
        </summary>
        <pre className="event-json">{JSON.stringify(event, null, 2)}</pre>
      </details>
    </li>
  );
}

export default function EventLogPage() {
  const { t } = useTranslation();
  const [form, setForm] = useState({ stream: '', type: '', from: '', to: '' });
  const [filters, setFilters] = useState(form);
  const [before, setBefore] = useState<number[]>([]);
  const query = () => {
    const from = toIso(filters.from);
    const to = toIso(filters.to);
    return {
      limit: 50,
      ...(filters.stream ? { stream: filters.stream } : {}),
      ...(filters.type ? { type: filters.type } : {}),
      ...(from ? { from } : {}),
      ...(to ? { to } : {}),
      ...(before.length > 0 ? { before: before[before.length - 1] ?? 0 } : {}),
    };
  };
  // A filter leaves positions out by design: gaps are only worth naming on the whole log.
  const unfiltered = !filters.stream && !filters.type && !filters.from && !filters.to;
  const [page, reload] = useLoad(() => operationsApi.events(query()));
  const apply = (event: SyntheticEvent) => {
    event.preventDefault();
    setFilters(form);
    setBefore([]);
    setTimeout(reload, 0);
  };
  const field = (name: keyof typeof form) => ({
    value: form[name],
    onChange: (event: { target: { value: string } }) => {
      setForm({ ...form, [name]: event.target.value });
    },
  });
  return (
    <>
      <PageHeader title={t('operations.nav.events')} description={t('operations.events.description')} />
      <form className="filters" role="search" onSubmit={apply}>
        <Input label={t('operations.events.stream')} {...field('stream')} />
        <Input label={t('operations.events.type')} {...field('type')} />
        <Input label={t('operations.events.from')} type="datetime-local" {...field('from')} />
        <Input label={t('operations.events.to')} type="datetime-local" {...field('to')} />
        <Button type="submit" variant="primary">
          {t('operations.events.apply')}
        </Button>
      </form>
      <Card>
        <Loading loaded={page} retry={reload}>
          {({ events, next_before: next }) =>
            events.length === 0 ? (
              <EmptyState title={t('operations.events.empty')} />
            ) : (
              <>
                <p className="console-note">{t('operations.events.gap_note')}</p>
                <ol className="event-list">
                  {events.map((event, index) => {
                    const newer = events[index - 1];
                    return (
                      <Fragment key={event.position}>
                        {newer && unfiltered && <Gap newer={newer.position} older={event.position} />}
                        <EventRow event={event} />
                      </Fragment>
                    );
                  })}
                </ol>
                {next !== null && (
                  <Button
                    onClick={() => {
                      setBefore([...before, next]);
                      setTimeout(reload, 0);
                    }}
                  >
                    {t('operations.next_page')}
                  </Button>
                )}
              </>
            )
          }
        </Loading>
      </Card>
    </>
  );
}
